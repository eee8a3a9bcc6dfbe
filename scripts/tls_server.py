"""Serves httpbin over TLS (HTTP/2 and HTTP/1.1) with hypercorn on free loopback ports, with
certificates made at start by trustme, for Convoy's TLS, pinning, mTLS and HTTP/2 tests.

Usage: tls_server.py <host> <directory>

Writes into <directory>: ca.pem (the CA that signed the servers' certificate, trusted by no
system store), client-ca.pem, client.pem and client-key.pem (a client certificate the mTLS
server accepts), other-client.pem and other-client-key.pem (one it refuses: another CA).

Prints one line once every server accepts connections:

  LISTENING <host> <port> dir=<directory> pin=<base64 SPKI SHA-256 of the servers' key>
    mtls=<port> tls12=<port> h1=<port>

  <port>  HTTP/2 and HTTP/1.1 by ALPN, TLS 1.2 and 1.3
  mtls    the same, but a client certificate signed by client-ca.pem is required
  tls12   TLS 1.2 at most
  h1      HTTP/1.1 only (ALPN offers no h2)

Besides httpbin, GET /connection answers {"http_version": "2", "client_port": 51234}: the
protocol of the request and the client's port, which names the TCP connection it came on.
POST /duplex-echo answers at once and sends back each piece of the request body as it arrives,
ending its answer when the request ends: a client can read the answer while it still writes.
GET /trailers answers "the body" followed by the trailer field `x-checksum: sha256=abc` (hypercorn
sends trailers only over HTTP/2, and only to a request that says `TE: trailers`).
POST /speak speaks first: it sends "A", waits for the client to send "A" back, 100 (or ?rounds=N)
times, then ends its answer while the request is still open, and reads the request to its end.
POST /upload-digest reads the whole request body, however it is framed (httpbin, behind WSGI,
cannot read a chunked one), and answers {"bytes": 1234, "sha256": "<hex>"}.
Exits when its parent process goes away.
"""
import asyncio
import base64
import hashlib
import json
import os
import socket
import ssl
import sys
import threading
import time
from functools import partial

import httpbin
import trustme
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypercorn.app_wrappers import WSGIWrapper
from hypercorn.asyncio import serve
from hypercorn.config import Config

wsgi = WSGIWrapper(httpbin.app, 16 * 1024 * 1024)


async def app(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http" and scope["path"] == "/connection":
        client = scope.get("client") or ("", 0)
        body = json.dumps({"http_version": scope["http_version"], "client_port": client[1]})
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})
        return
    if scope["type"] == "http" and scope["path"] == "/speak":
        query = dict(
            part.split("=", 1) for part in scope["query_string"].decode().split("&") if "=" in part
        )
        await speak(receive, send, int(query.get("rounds", "100")))
        return
    if scope["type"] == "http" and scope["path"] == "/trailers":
        await with_trailers(send)
        return
    if scope["type"] == "http" and scope["path"] == "/upload-digest":
        await upload_digest(receive, send)
        return
    if scope["type"] == "http" and scope["path"] == "/duplex-echo":
        await duplex_echo(receive, send)
        return
    loop = asyncio.get_running_loop()

    def call_soon(func, *args):
        return asyncio.run_coroutine_threadsafe(func(*args), loop).result()

    await wsgi(scope, receive, send, partial(loop.run_in_executor, None), call_soon)


async def speak(receive, send, rounds: int) -> None:
    """Sends "A" and waits for it to come back, `rounds` times; ends first, then drains."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/plain")],
        }
    )
    more_body = True
    for _ in range(rounds):
        await send({"type": "http.response.body", "body": b"A", "more_body": True})
        echoed = b""
        while more_body and not echoed:
            message = await receive()
            if message["type"] != "http.request":
                return
            echoed = message.get("body", b"")
            more_body = message.get("more_body", False)
        if echoed != b"A":
            break
    await send({"type": "http.response.body", "body": b"", "more_body": False})
    while more_body:
        message = await receive()
        if message["type"] != "http.request":
            return
        more_body = message.get("more_body", False)


async def with_trailers(send) -> None:
    """A short body, then a trailer field."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/plain")],
            "trailers": True,
        }
    )
    await send({"type": "http.response.body", "body": b"the body", "more_body": False})
    await send(
        {
            "type": "http.response.trailers",
            "headers": [(b"x-checksum", b"sha256=abc")],
            "more_trailers": False,
        }
    )


async def upload_digest(receive, send) -> None:
    """Answers with the size and SHA-256 of the whole request body."""
    digest = hashlib.sha256()
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        digest.update(message.get("body", b""))
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = json.dumps({"bytes": size, "sha256": digest.hexdigest()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def duplex_echo(receive, send) -> None:
    """Starts the answer before reading the request, then echoes every body piece at once."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/octet-stream")],
        }
    )
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        if message.get("body"):
            await send({"type": "http.response.body", "body": message["body"], "more_body": True})
        if not message.get("more_body", False):
            break
    await send({"type": "http.response.body", "body": b"", "more_body": False})


class LoopbackConfig(Config):
    """A hypercorn configuration on an already bound socket, with an optional TLS ceiling."""

    def __init__(self, sock: socket.socket, maximum_version=None) -> None:
        super().__init__()
        self.bind = [f"fd://{sock.fileno()}"]
        self.maximum_version = maximum_version
        self.accesslog = None
        self.errorlog = None
        # hypercorn closes a connection idle for 5 s; on a loaded test machine (ThreadSanitizer,
        # other builds) that raced a client reusing it (curl 18 on HTTP/2, seen in CI). 75 s is
        # nginx's default.
        self.keep_alive_timeout = 75

    def create_ssl_context(self):
        context = super().create_ssl_context()
        if self.maximum_version is not None:
            context.maximum_version = self.maximum_version
        return context


def bound_socket(host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def spki_pin(cert_pem: bytes) -> str:
    certificate = x509.load_pem_x509_certificate(cert_pem)
    spki = certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def main() -> None:
    host = sys.argv[1]
    directory = sys.argv[2]
    if not host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    os.makedirs(directory, exist_ok=True)
    path = partial(os.path.join, directory)

    ca = trustme.CA()
    ca.cert_pem.write_to_path(path("ca.pem"))
    server = ca.issue_cert(host, "localhost")
    server.private_key_and_cert_chain_pem.write_to_path(path("server.pem"))
    client_ca = trustme.CA()
    client_ca.cert_pem.write_to_path(path("client-ca.pem"))
    client = client_ca.issue_cert("client@convoy.test")
    client.cert_chain_pems[0].write_to_path(path("client.pem"))
    client.private_key_pem.write_to_path(path("client-key.pem"))
    other = trustme.CA().issue_cert("stranger@convoy.test")
    other.cert_chain_pems[0].write_to_path(path("other-client.pem"))
    other.private_key_pem.write_to_path(path("other-client-key.pem"))
    for name in os.listdir(directory):
        os.chmod(path(name), 0o600)

    sockets = {name: bound_socket(host) for name in ["main", "mtls", "tls12", "h1"]}
    configs = {
        "main": LoopbackConfig(sockets["main"]),
        "mtls": LoopbackConfig(sockets["mtls"]),
        "tls12": LoopbackConfig(sockets["tls12"], maximum_version=ssl.TLSVersion.TLSv1_2),
        "h1": LoopbackConfig(sockets["h1"]),
    }
    for config in configs.values():
        config.certfile = path("server.pem")
        config.keyfile = path("server.pem")
    configs["mtls"].ca_certs = path("client-ca.pem")
    configs["mtls"].verify_mode = ssl.CERT_REQUIRED
    configs["h1"].alpn_protocols = ["http/1.1"]

    parent = os.getppid()

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()

    async def run() -> None:
        tasks = [asyncio.create_task(serve(app, config)) for config in configs.values()]
        await asyncio.sleep(0.3)
        port = {name: sock.getsockname()[1] for name, sock in sockets.items()}
        print(
            "LISTENING",
            host,
            port["main"],
            f"dir={directory}",
            f"pin={spki_pin(server.cert_chain_pems[0].bytes())}",
            f"mtls={port['mtls']}",
            f"tls12={port['tls12']}",
            f"h1={port['h1']}",
            flush=True,
        )
        await asyncio.gather(*tasks)

    asyncio.run(run())


if __name__ == "__main__":
    main()
