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
import random

from asgi_loopback import serve
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


if __name__ == "__main__":
    serve(app)
