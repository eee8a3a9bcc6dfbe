"""Serves httpbin on a free loopback port for Convoy's integration tests.

Prints "LISTENING <host> <port>" once ready. Exits when its parent process goes away, so a
crashed test run never leaves a server behind.
"""
import os
import sys
import threading
import time

from werkzeug.serving import WSGIRequestHandler, make_server

import httpbin


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    parent = os.getppid()
    WSGIRequestHandler.protocol_version = "HTTP/1.1"  # keep-alive, as real servers do
    server = make_server(host, 0, httpbin.app, threaded=True)
    print("LISTENING", host, server.server_port, flush=True)

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
