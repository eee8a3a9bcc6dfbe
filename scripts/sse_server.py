"""Serves server-sent events and JSON Lines with sse-starlette on uvicorn, on a free loopback
port, for Convoy's streaming integration tests: the peer whose event format (CRLF lines,
comments, two-line data, `retry:`) no one here wrote. Streams whose behaviour only these tests
define (drops, bearer tokens, the token endpoint) are scripted in Swift, in
Tests/ConvoyIntegrationTests/Support/ScriptedEventServer.swift.

Prints "LISTENING <host> <port>" once the socket is bound. Exits when its parent process goes
away, so a crashed test run never leaves a server behind.

Every endpoint takes a `key` query parameter so tests running in parallel keep their own log.
Endpoints:

  GET  /events?key&count          retry: 100, then events 1..count, then the end; 204 once the
                                  client's Last-Event-ID reached count
  GET  /jsonl?key&count           application/x-ndjson, count objects
  GET  /ticks?key&count&interval  events whose data is the send time (the SSE benchmark's)
  GET  /log?key                   what each request of that key carried

The event streams end lines with CRLF, sse-starlette's choice.
"""
import asyncio
import json
import time
from collections import defaultdict

from asgi_loopback import serve
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

RETRY_MILLISECONDS = 100

# What each key's requests carried; one event loop thread, so no locks.
request_log: dict[str, list[dict]] = defaultdict(list)


def key_of(request: Request) -> str:
    return request.query_params.get("key", "default")


def record(request: Request) -> None:
    request_log[key_of(request)].append(
        {
            "path": request.url.path,
            "last_event_id": request.headers.get("last-event-id"),
            "authorization_present": "authorization" in request.headers,
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


def tick_event(i: int) -> ServerSentEvent:
    return ServerSentEvent(
        id=str(i),
        event="tick",
        comment=f"comment before event {i}",
        data=f"line one of {i}\nline two of {i}",
    )


async def events(request: Request) -> Response:
    record(request)
    count = int_param(request, "count", 3)
    if last_event_id(request) >= count:
        return Response(status_code=204)

    async def generate():
        yield ServerSentEvent(retry=RETRY_MILLISECONDS)
        for i in range(1, count + 1):
            yield tick_event(i)

    return EventSourceResponse(generate(), ping=3600)


async def jsonl(request: Request) -> Response:
    record(request)
    count = int_param(request, "count", 3)

    async def lines():
        for i in range(1, count + 1):
            yield json.dumps({"index": i, "text": f"line {i}"}) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


async def ticks(request: Request) -> Response:
    record(request)
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
    return JSONResponse(request_log.get(key_of(request), []))


app = Starlette(
    routes=[
        Route("/events", events),
        Route("/jsonl", jsonl),
        Route("/ticks", ticks),
        Route("/log", log),
    ]
)


if __name__ == "__main__":
    serve(app)
