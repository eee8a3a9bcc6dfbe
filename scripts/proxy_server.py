"""Runs two proxy.py HTTP proxies on free loopback ports for Convoy's proxy tests: one open,
one requiring Basic credentials (user "convoy", password "proxy-secret"). Both tunnel HTTPS
with CONNECT.

Prints "LISTENING <host> <open port> auth=<port>" once both accept connections. Exits when its
parent process goes away.
"""
import os
import sys
import threading
import time

import proxy

USER = "convoy"
PASSWORD = "proxy-secret"


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    parent = os.getppid()
    common = ["--hostname", host, "--port", "0", "--num-workers", "1", "--num-acceptors", "1"]
    with proxy.Proxy(common) as open_proxy, proxy.Proxy(
        common + ["--basic-auth", f"{USER}:{PASSWORD}"]
    ) as auth_proxy:
        print("LISTENING", host, open_proxy.flags.port, f"auth={auth_proxy.flags.port}", flush=True)
        while os.getppid() == parent:
            time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
