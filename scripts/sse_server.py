"""Serves server-sent events, JSON Lines and a small OAuth2 token endpoint on a free loopback
port for Convoy's streaming integration tests (sse-starlette on uvicorn).

Prints "LISTENING <host> <port>" once the socket is bound. Exits when its parent process goes
away, so a crashed test run never leaves a server behind.

Every endpoint takes a `key` query parameter (the token endpoint also reads `key` from its form)
so tests running in parallel keep their own state. Endpoints:

  GET  /events?key&count          retry: 100, then events 1..count, then the end; 204 once the
                                  client's Last-Event-ID reached count
  GET  /drop?key&count&drop_after events from Last-Event-ID + 1, at most drop_after of them,
                                  then an abrupt drop (no end of the chunked body); 204 after count
  GET  /protected?...             /drop behind a bearer token issued by /oauth/token
  GET  /stop?key                  always 204
  GET  /not-sse?key               200 application/json
  GET  /jsonl?key&count           application/x-ndjson, count objects
  GET  /ticks?key&count&interval  events whose data is the send time, for latency measurement
  GET  /log?key                   what each request of that key carried (never a token)
  POST /users/retrieve-client     Convoy's client-secret step of the login
  POST /oauth/token               password and refresh_token grants (RFC 6749 §4.3, §6)
  POST /expire?key                expires the key's current access tokens

The event streams end lines with CRLF (sse-starlette's choice); `newline=lf` or `newline=cr`
picks another. The token endpoint takes `expires_in` (seconds) in its form to issue short-lived
tokens; each refresh token works once (rotation).
"""
import asyncio
import base64
import json
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections import defaultdict
from urllib.parse import parse_qs

import uvicorn
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

CLIENT_ID = "convoy-tests"
CLIENT_SECRET = "convoy-tests-secret"
PASSWORD = "correct horse"  # any email logs in with this password
DEFAULT_TOKEN_LIFETIME = 300.0
RETRY_MILLISECONDS = 100


class Store:
    """What the server remembers, per key; one event loop thread, so no locks."""

    def __init__(self) -> None:
        self.log: dict[str, list[dict]] = defaultdict(list)
        self.access_tokens: dict[str, dict[str, float]] = defaultdict(dict)  # token -> expiry
        self.refresh_tokens: dict[str, set[str]] = defaultdict(set)


store = Store()


def key_of(request: Request) -> str:
    return request.query_params.get("key", "default")


def record(request: Request, key: str, **extra) -> None:
    store.log[key].append(
        {
            "path": request.url.path,
            "last_event_id": request.headers.get("last-event-id"),
            "authorization_present": "authorization" in request.headers,
            **extra,
        }
    )


def int_param(request: Request, name: str, default: int) -> int:
    try:
        return max(0, min(int(request.query_params.get(name, default)), 1_000_000))
    except ValueError:
        return default


def last_event_id(request: Request) -> int:
    try:
        return int(request.headers.get("last-event-id", "0"))
    except ValueError:
        return 0


NEWLINES = {"crlf": "\r\n", "lf": "\n", "cr": "\r"}


def newline_of(request: Request) -> str:
    """sse-starlette ends lines with CRLF; `newline=lf|cr` picks another of the three that
    text/event-stream allows."""
    return NEWLINES.get(request.query_params.get("newline", "crlf"), "\r\n")


def tick_event(i: int, sep: str) -> ServerSentEvent:
    return ServerSentEvent(
        sep=sep,
        id=str(i),
        event="tick",
        comment=f"comment before event {i}",
        data=f"line one of {i}\nline two of {i}",
    )


class DroppedOnPurpose(Exception):
    """Raised after the head was sent: uvicorn then closes the connection without the final
    chunk, which is what a dropped connection looks like to a client."""


def event_stream(request: Request, first: int, last: int, drop: bool) -> Response:
    sep = newline_of(request)

    async def generate():
        yield ServerSentEvent(retry=RETRY_MILLISECONDS, sep=sep)
        for i in range(first, last + 1):
            yield tick_event(i, sep)
        if drop:
            await asyncio.sleep(0.05)  # let the events leave before the connection goes
            raise DroppedOnPurpose()

    return EventSourceResponse(generate(), ping=3600, sep=sep)


async def events(request: Request) -> Response:
    key = key_of(request)
    record(request, key)
    count = int_param(request, "count", 3)
    if last_event_id(request) >= count:
        return Response(status_code=204)
    return event_stream(request, 1, count, drop=False)


def dropping_stream(request: Request) -> Response:
    count = int_param(request, "count", 10)
    drop_after = max(1, int_param(request, "drop_after", 3))
    first = last_event_id(request) + 1
    if first > count:
        return Response(status_code=204)
    last = min(first + drop_after - 1, count)
    return event_stream(request, first, last, drop=last < count)


async def drop(request: Request) -> Response:
    record(request, key_of(request))
    return dropping_stream(request)


def invalid_token(description: str, status: int = 401) -> Response:
    headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'} if status == 401 else {}
    return JSONResponse(
        {"error": "invalid_token", "error_description": description},
        status_code=status,
        headers=headers,
    )


async def protected(request: Request) -> Response:
    key = key_of(request)
    record(request, key)
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        return invalid_token("A bearer token is required.")
    expiry = store.access_tokens[key].get(token)
    if expiry is None:
        return invalid_token("The access token is unknown.")
    if expiry <= time.time():
        return invalid_token("The access token expired.")
    return dropping_stream(request)


async def stop(request: Request) -> Response:
    record(request, key_of(request))
    return Response(status_code=204)


async def not_sse(request: Request) -> Response:
    record(request, key_of(request))
    return JSONResponse({"message": "this is not an event stream"})


async def jsonl(request: Request) -> Response:
    record(request, key_of(request))
    count = int_param(request, "count", 3)

    async def lines():
        for i in range(1, count + 1):
            yield json.dumps({"index": i, "text": f"line {i}"}) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


async def ticks(request: Request) -> Response:
    record(request, key_of(request))
    count = int_param(request, "count", 10)
    try:
        interval = max(0.0, min(float(request.query_params.get("interval", "0.01")), 10.0))
    except ValueError:
        interval = 0.01

    async def generate():
        for i in range(1, count + 1):
            sent = {"index": i, "epoch": time.time(), "monotonic_ns": time.monotonic_ns()}
            yield ServerSentEvent(id=str(i), event="tick", data=json.dumps(sent))
            if interval:
                await asyncio.sleep(interval)

    return EventSourceResponse(generate(), ping=3600)


async def log(request: Request) -> Response:
    return JSONResponse(store.log.get(key_of(request), []))


async def retrieve_client(request: Request) -> Response:
    key = key_of(request)
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        body = {}
    record(request, key)
    if not isinstance(body, dict) or body.get("password") != PASSWORD:
        return JSONResponse({"error": "invalid_credentials"}, status_code=401)
    return JSONResponse({"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET})


def client_of(request: Request, form: dict[str, str]) -> tuple[str, str]:
    """RFC 6749 §2.3.1: Basic with form-encoded id and secret, or both in the form."""
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "basic":
        try:
            pair = base64.b64decode(credentials).decode()
        except ValueError:
            return "", ""
        identifier, _, secret = pair.partition(":")
        decoded = parse_qs(f"i={identifier}&s={secret}")
        return decoded.get("i", [""])[0], decoded.get("s", [""])[0]
    return form.get("client_id", ""), form.get("client_secret", "")


def token_error(error: str, description: str, status: int = 400) -> Response:
    return JSONResponse({"error": error, "error_description": description}, status_code=status)


async def token(request: Request) -> Response:
    fields = parse_qs((await request.body()).decode("utf-8", "replace"))
    form = {name: values[0] for name, values in fields.items()}
    key = form.get("key") or key_of(request)
    grant = form.get("grant_type")
    record(request, key, grant_type=grant)
    if client_of(request, form) != (CLIENT_ID, CLIENT_SECRET):
        return token_error("invalid_client", "The client is unknown.", 401)
    if grant == "password":
        if form.get("password") != PASSWORD:
            return token_error("invalid_grant", "The email or password is wrong.")
    elif grant == "refresh_token":
        refresh = form.get("refresh_token", "")
        if refresh not in store.refresh_tokens[key]:
            return token_error("invalid_grant", "The refresh token is unknown or was used.")
        store.refresh_tokens[key].discard(refresh)  # rotation: each one works once
    else:
        return token_error("unsupported_grant_type", "Only password and refresh_token.")
    try:
        lifetime = max(0.0, float(form.get("expires_in", DEFAULT_TOKEN_LIFETIME)))
    except ValueError:
        lifetime = DEFAULT_TOKEN_LIFETIME
    access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    store.access_tokens[key][access] = time.time() + lifetime
    store.refresh_tokens[key].add(refresh)
    return JSONResponse(
        {
            "access_token": access,
            "token_type": "bearer",
            "expires_in": lifetime,
            "refresh_token": refresh,
        },
        headers={"Cache-Control": "no-store"},
    )


async def expire(request: Request) -> Response:
    key = key_of(request)
    record(request, key)
    tokens = store.access_tokens[key]
    for access in tokens:
        tokens[access] = 0.0
    return Response(status_code=204)


app = Starlette(
    routes=[
        Route("/events", events),
        Route("/drop", drop),
        Route("/protected", protected),
        Route("/stop", stop),
        Route("/not-sse", not_sse),
        Route("/jsonl", jsonl),
        Route("/ticks", ticks),
        Route("/log", log),
        Route("/users/retrieve-client", retrieve_client, methods=["POST"]),
        Route("/oauth/token", token, methods=["POST"]),
        Route("/expire", expire, methods=["POST"]),
    ]
)


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not (host.startswith("127.") or host == "::1"):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    # A test process may start us with signals blocked (Foundation's Process passes its mask
    # on); uvicorn could then not stop on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parent = os.getppid()
    # Bound here, before uvicorn starts, so the real port is known and printed first.
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    listener.listen(128)
    print("LISTENING", host, listener.getsockname()[1], flush=True)

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=1, lifespan="off"
    )
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    main()
