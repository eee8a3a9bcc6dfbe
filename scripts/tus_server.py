"""Serves the tus resumable-upload protocol with tuspyserver (a FastAPI router) on uvicorn, on a
free loopback port, for Convoy's resumable-upload integration tests: the peer whose reading of
tus 1.0.0 (creation, HEAD offsets, PATCH parts, expiry) no one here wrote.

Prints "LISTENING <host> <port> <files-dir>" once the socket is bound; uploads land in
<files-dir> (a temporary folder, removed at exit) under the name the Location's last segment
gives. Exits when its parent process goes away, so a crashed test run never leaves a server
behind.

Endpoints:

  POST/HEAD/PATCH/DELETE /files/...   tuspyserver's routes
"""
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

import uvicorn
from fastapi import FastAPI
from tuspyserver import create_tus_router


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not (host.startswith("127.") or host == "::1"):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    # A test process may start us with signals blocked (Foundation's Process passes its mask
    # on); uvicorn could then not stop on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parent = os.getppid()
    files = tempfile.mkdtemp(prefix="convoy-tus-")
    app = FastAPI()
    app.include_router(create_tus_router(prefix="files", files_dir=files))
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    listener.listen(128)
    print("LISTENING", host, listener.getsockname()[1], files, flush=True)

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        shutil.rmtree(files, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=1, lifespan="off"
    )
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        shutil.rmtree(files, ignore_errors=True)


if __name__ == "__main__":
    main()
