"""Runs two proxy.py HTTP proxies on free loopback ports for Convoy's proxy tests: one open,
one requiring Basic credentials (user "convoy", password "proxy-secret"). Both tunnel HTTPS
with CONNECT. Also a minimal SOCKS5 proxy (RFC 1928/1929, standard library) that requires the
same user name and password and connects to loopback addresses only.

Prints "LISTENING <host> <open port> auth=<port> socks=<port>" once all accept connections.
Exits when its parent process goes away.
"""
import os
import socket
import struct
import sys
import threading
import time

import proxy

USER = "convoy"
PASSWORD = "proxy-secret"


def relay(source: socket.socket, target: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def read_exactly(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data


def socks5(client: socket.socket) -> None:
    """One SOCKS5 session: user/password authentication, then CONNECT to a loopback address."""
    client.settimeout(10)
    try:
        _, count = read_exactly(client, 2)
        methods = read_exactly(client, count)
        if 2 not in methods:
            client.sendall(b"\x05\xff")
            return
        client.sendall(b"\x05\x02")
        _, user_length = read_exactly(client, 2)
        user = read_exactly(client, user_length).decode()
        (password_length,) = read_exactly(client, 1)
        password = read_exactly(client, password_length).decode()
        if (user, password) != (USER, PASSWORD):
            client.sendall(b"\x01\x01")
            return
        client.sendall(b"\x01\x00")
        _, command, _, address_type = read_exactly(client, 4)
        if address_type == 1:
            host = socket.inet_ntoa(read_exactly(client, 4))
        elif address_type == 3:
            (length,) = read_exactly(client, 1)
            host = read_exactly(client, length).decode()
        else:
            client.sendall(b"\x05\x08\x00\x01" + b"\x00" * 6)
            return
        (port,) = struct.unpack("!H", read_exactly(client, 2))
        if command != 1 or host not in ("127.0.0.1", "127.0.0.2", "localhost"):
            client.sendall(b"\x05\x02\x00\x01" + b"\x00" * 6)  # not allowed by ruleset
            return
        target = socket.create_connection((host, port), timeout=10)
        client.sendall(b"\x05\x00\x00\x01" + b"\x00" * 6)
        client.settimeout(None)
        target.settimeout(None)
        threading.Thread(target=relay, args=(target, client), daemon=True).start()
        relay(client, target)
    except OSError:
        pass
    finally:
        client.close()


def serve_socks(listener: socket.socket) -> None:
    while True:
        client, _ = listener.accept()
        threading.Thread(target=socks5, args=(client,), daemon=True).start()


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    parent = os.getppid()
    common = ["--hostname", host, "--port", "0", "--num-workers", "1", "--num-acceptors", "1"]
    socks_listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    socks_listener.bind((host, 0))
    socks_listener.listen(16)
    threading.Thread(target=serve_socks, args=(socks_listener,), daemon=True).start()
    with proxy.Proxy(common) as open_proxy, proxy.Proxy(
        common + ["--basic-auth", f"{USER}:{PASSWORD}"]
    ) as auth_proxy:
        print(
            "LISTENING",
            host,
            open_proxy.flags.port,
            f"auth={auth_proxy.flags.port}",
            f"socks={socks_listener.getsockname()[1]}",
            flush=True,
        )
        while os.getppid() == parent:
            time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
