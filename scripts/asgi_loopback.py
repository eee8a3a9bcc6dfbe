"""Serves an ASGI app with uvicorn on a free loopback port, as the integration tests' Python
servers do: refuses any other address, prints "LISTENING <host> <port> [details...]" once the
socket is bound (so the real port is known before uvicorn starts), and exits when the parent
process goes away, so a crashed test run never leaves a server behind.
"""
import os
import signal
import socket
import sys
import threading
import time

import uvicorn


def serve(app, details=(), on_exit=None) -> None:
    """Serves `app` on the host given as the first argument (127.0.0.1 by default).

    `details` are printed after the port on the LISTENING line; `on_exit` runs before the
    process exits, whether the parent went away or uvicorn stopped.
    """
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not (host.startswith("127.") or host == "::1"):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    # A test process may start us with signals blocked (Foundation's Process passes its mask
    # on); uvicorn could then not stop on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parent = os.getppid()
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    listener.listen(128)
    print("LISTENING", host, listener.getsockname()[1], *details, flush=True)

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        if on_exit:
            on_exit()
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=1, lifespan="off"
    )
    _Server(config, on_exit).run(sockets=[listener])


class _Server(uvicorn.Server):
    """uvicorn's server, running `on_exit` once it has shut down: uvicorn raises the SIGTERM it
    caught again afterwards, so code after `run` would never run."""

    def __init__(self, config, on_exit) -> None:
        super().__init__(config)
        self.on_exit = on_exit

    async def shutdown(self, sockets=None) -> None:
        await super().shutdown(sockets=sockets)
        if self.on_exit:
            self.on_exit()
