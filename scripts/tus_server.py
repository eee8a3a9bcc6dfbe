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
import shutil
import tempfile

from asgi_loopback import serve
from fastapi import FastAPI
from tuspyserver import create_tus_router


def main() -> None:
    files = tempfile.mkdtemp(prefix="convoy-tus-")
    app = FastAPI()
    app.include_router(create_tus_router(prefix="files", files_dir=files))
    serve(app, details=[files], on_exit=lambda: shutil.rmtree(files, ignore_errors=True))


if __name__ == "__main__":
    main()
