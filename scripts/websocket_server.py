"""Serves WebSocket endpoints with the `websockets` package (RFC 6455 and permessage-deflate as
its authors read them), on free loopback ports, plain and over TLS with a trustme certificate,
for Convoy's WebSocket integration tests.

Prints "LISTENING <host> <port> <tls-port> <ca-file>" once both sockets are bound. Exits when its
parent process goes away, so a crashed test run never leaves a server behind.

Endpoints (the path of the upgrade request):

  /echo           every message back as it came (text as text, binary as binary)
  /close?code&reason
                  closes at once with that code and reason
  /headers        one text message, JSON: whether an Authorization field came, the Cookie field,
                  the subprotocol and the extensions agreed; then echoes
  /private        refuses the upgrade with 401 unless Authorization is "Bearer good-token"
  /speak?count    sends count text messages "1".."count", then closes with 1000
  /echo?key=K     as /echo, and remembers the close code the client sent under K
  /closed?key=K   one text message: the close code remembered under K (waiting up to 5 s for
                  it), then closes

The server offers the subprotocol "chat.v1" and accepts permessage-deflate, as `websockets`
does by default.
"""
import asyncio
import json
import os
import signal
import socket
import ssl
import sys
import tempfile
import threading
import time
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

import trustme
from websockets.asyncio.server import serve


CLOSES = {}


async def handler(connection):
    url = urlsplit(connection.request.path)
    query = parse_qs(url.query)
    if url.path == "/closed":
        key = query.get("key", [""])[0]
        for _ in range(50):
            if key in CLOSES:
                break
            await asyncio.sleep(0.1)
        await connection.send(str(CLOSES.get(key)))
        await connection.close(1000, "")
        return
    if url.path == "/close":
        await connection.close(int(query.get("code", ["1000"])[0]), query.get("reason", [""])[0])
        return
    if url.path == "/speak":
        for number in range(1, int(query.get("count", ["3"])[0]) + 1):
            await connection.send(str(number))
        await connection.close(1000, "done")
        return
    if url.path == "/headers":
        headers = connection.request.headers
        await connection.send(
            json.dumps(
                {
                    "authorization": "Authorization" in headers,
                    "cookie": headers.get("Cookie"),
                    "subprotocol": connection.subprotocol,
                    "extensions": headers.get("Sec-WebSocket-Extensions"),
                }
            )
        )
    try:
        async for message in connection:
            await connection.send(message)
    finally:
        if "key" in query:
            CLOSES[query["key"][0]] = connection.close_code


def select_subprotocol(connection, subprotocols):
    # websockets refuses a client that offers none when the server lists some; "chat.v1" is
    # only an option here.
    return "chat.v1" if "chat.v1" in subprotocols else None


def refuse_private(connection, request):
    if urlsplit(request.path).path == "/private":
        if request.headers.get("Authorization") != "Bearer good-token":
            return connection.respond(HTTPStatus.UNAUTHORIZED, "no valid token\n")
    return None


def listener(host):
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(128)
    return sock


async def main(host):
    authority = trustme.CA()
    certificate = authority.issue_cert(host)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(context)
    folder = tempfile.mkdtemp(prefix="convoy-ws-")
    ca_file = os.path.join(folder, "ca.pem")
    authority.cert_pem.write_to_path(ca_file)
    plain, secure = listener(host), listener(host)
    options = dict(
        select_subprotocol=select_subprotocol, process_request=refuse_private, max_size=16 << 20
    )
    async with serve(handler, sock=plain, **options), serve(
        handler, sock=secure, ssl=context, **options
    ):
        print(
            "LISTENING", host, plain.getsockname()[1], secure.getsockname()[1], ca_file, flush=True
        )
        await asyncio.Future()


if __name__ == "__main__":
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not (host.startswith("127.") or host == "::1"):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    asyncio.run(main(host))
