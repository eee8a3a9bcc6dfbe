"""Applies numbered jobs with FastAPI on uvicorn, honouring Idempotency-Key
(draft-ietf-httpapi-idempotency-key-header) as a payment or order API does, on a free loopback
port, for the durable queue's crash tests: the server that says how many times each job was
applied.

Prints "LISTENING <host> <port>" once the socket is bound. Exits when its parent process goes
away, so a crashed test run never leaves a server behind.

Endpoints:

  POST /jobs/{number}   needs Idempotency-Key; applies the job the first time a key comes, then
                        waits 0-20 ms before answering (so a client killed meanwhile loses the
                        answer, not the application); a key seen before is answered again
                        without applying anything (422 if it came with another number)
  GET  /applied         [{"key", "number", "applications", "replays"}], in the order applied
"""
import asyncio
import os
import random
import signal
import socket
import sys
import threading
import time

import uvicorn
from fastapi import FastAPI, Header, HTTPException

app = FastAPI()
APPLIED = {}


@app.post("/jobs/{number}", status_code=201)
async def apply(number: int, idempotency_key: str = Header(default=None)):
    if not idempotency_key:
        raise HTTPException(status_code=400, detail="Idempotency-Key is required")
    earlier = APPLIED.get(idempotency_key)
    if earlier is not None:
        if earlier["number"] != number:
            raise HTTPException(status_code=422, detail="key used for another job")
        earlier["replays"] += 1
        return {"number": number, "replayed": True}
    APPLIED[idempotency_key] = {"key": idempotency_key, "number": number, "applications": 1,
                                "replays": 0}
    await asyncio.sleep(random.uniform(0, 0.02))
    return {"number": number, "replayed": False}


@app.get("/applied")
async def applied():
    return list(APPLIED.values())


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not (host.startswith("127.") or host == "::1"):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parent = os.getppid()
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
