"""A deliberately misbehaving HTTP server on a free loopback port, for Convoy's tests of how each
transport reports a broken answer (Python standard library only).

Prints "LISTENING <host> <port>" once the socket accepts connections. Exits when its parent
process goes away, so a crashed test run never leaves a server behind. Everything is bounded:
at most MAX_CONNECTIONS handled at once, a request head of at most 64 KB read within 5 s, and no
connection kept longer than STALL_SECONDS + 5 s.

The request path picks the fault. Every request's `key` query parameter is counted, so a test
can ask how often the client tried (retries):

  /hits?key=K          200 with the number of earlier requests that carried key K, as text
  /ok                  a valid 200 with a two-byte body, for checking the harness itself
  /reset-before-head   reads the request, then resets the connection (TCP RST)
  /close-before-head   reads the request, then closes the connection cleanly without answering
  /reset-during-body   a head announcing 1,000 bytes, 100 of them, then a reset
  /short-body          a head announcing 1,000 bytes, 100 of them, then a clean close
  /garbage-status      a first line that is not an HTTP status line
  /invalid-header      a valid status line followed by a header line with no colon
  /invalid-chunked     a chunked body whose chunk size is not hexadecimal
  /stall-during-body   a head announcing 1,000 bytes, 100 of them, then silence for STALL_SECONDS
  /endless-body        a 200 without a length whose body never ends (until ENDLESS_BYTES have
                       gone or the client stops reading), for limits on buffered bodies
  /many-headers        a 200 whose head has MANY_HEADER_FIELDS fields, for limits on heads
  /together?key=K&count=N
                       held until N requests with key K are held at once, then 200 "together"
                       to each; 504 "alone" to any still waiting after TOGETHER_SECONDS, and at
                       once to one that comes after the N met. Proves that a client sent
                       requests side by side, whatever the machine's load.
"""
import os
import socket
import struct
import sys
import threading
import time

MAX_CONNECTIONS = 64
MAX_HEAD_BYTES = 64 * 1024
STALL_SECONDS = 10
TOGETHER_SECONDS = 10
ENDLESS_BYTES = 512 * 1024 * 1024
MANY_HEADER_FIELDS = 5000

slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
hits: dict[str, int] = {}
hits_lock = threading.Lock()
waiting: dict[str, int] = {}
waiting_changed = threading.Condition()


def read_head(connection: socket.socket) -> str:
    """The request head, or "" when the client sent none in time."""
    connection.settimeout(5)
    received = b""
    while b"\r\n\r\n" not in received and len(received) < MAX_HEAD_BYTES:
        try:
            chunk = connection.recv(4096)
        except OSError:
            return ""
        if not chunk:
            return ""
        received += chunk
    return received.decode("latin-1")


def reset(connection: socket.socket) -> None:
    """Closes with SO_LINGER 0, which makes the kernel send RST instead of FIN."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def partial_body_head() -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n" + b"x" * 100


def query_value(target: str, wanted: str) -> str:
    query = target.split("?", 1)[1] if "?" in target else ""
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name == wanted:
            return value
    return ""


def key_of(target: str) -> str:
    return query_value(target, "key")


def wait_together(key: str, count: int) -> bool:
    """Holds this request until `count` requests with `key` are held at once (bounded)."""
    deadline = time.monotonic() + TOGETHER_SECONDS
    with waiting_changed:
        if waiting.get(key) == -1:
            # The count was met without this one: it came alone, and must not reopen the key
            # while the requests that met it may still be waking up.
            return False
        waiting[key] = waiting.get(key, 0) + 1
        waiting_changed.notify_all()
        # Once the count is reached the key is marked met (-1), so late wakers answer too.
        while waiting.get(key, 0) != -1:
            if waiting[key] >= count:
                waiting[key] = -1
                waiting_changed.notify_all()
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                waiting[key] -= 1
                return False
            waiting_changed.wait(remaining)
        return True


def answer(connection: socket.socket, path: str, target: str) -> None:
    key = key_of(target)
    if path == "/hits":
        with hits_lock:
            count = str(hits.get(key, 0)).encode()
        connection.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (len(count), count)
        )
    elif path == "/ok":
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    elif path == "/reset-before-head":
        reset(connection)
        return
    elif path == "/close-before-head":
        pass
    elif path == "/reset-during-body":
        connection.sendall(partial_body_head())
        time.sleep(0.2)  # let the client read what was sent before the reset discards it
        reset(connection)
        return
    elif path == "/short-body":
        connection.sendall(partial_body_head())
    elif path == "/garbage-status":
        connection.sendall(b"THIS IS NOT HTTP AT ALL\r\nContent-Length: 2\r\n\r\nok")
    elif path == "/invalid-header":
        connection.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nthis line has no colon\r\n"
            b"Connection: close\r\n\r\nok"
        )
    elif path == "/invalid-chunked":
        connection.sendall(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            b"zz\r\nhello\r\n0\r\n\r\n"
        )
    elif path == "/stall-during-body":
        connection.sendall(partial_body_head())
        time.sleep(STALL_SECONDS)
    elif path == "/endless-body":
        connection.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        chunk = b"x" * 65536
        sent = 0
        deadline = time.monotonic() + STALL_SECONDS
        try:
            while sent < ENDLESS_BYTES and time.monotonic() < deadline:
                connection.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the client stopped reading: what a limit is for
    elif path == "/many-headers":
        fields = b"".join(b"X-Field-%d: %d\r\n" % (n, n) for n in range(MANY_HEADER_FIELDS))
        connection.sendall(
            b"HTTP/1.1 200 OK\r\n" + fields + b"Content-Length: 2\r\nConnection: close\r\n\r\nok"
        )
    elif path == "/together":
        asked = query_value(target, "count")
        count = min(int(asked), MAX_CONNECTIONS // 2) if asked.isdigit() else 2
        if wait_together(key, count):
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\ntogether"
            )
        else:
            connection.sendall(
                b"HTTP/1.1 504 Gateway Timeout\r\nContent-Length: 5\r\nConnection: close\r\n\r\nalone"
            )
    else:
        connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    try:
        connection.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    connection.close()


def handle(connection: socket.socket) -> None:
    try:
        head = read_head(connection)
        parts = head.split(" ", 2)
        target = parts[1] if len(parts) > 2 else ""
        path = target.split("?", 1)[0]
        key = key_of(target)
        if key and path != "/hits":
            with hits_lock:
                hits[key] = hits.get(key, 0) + 1
        if path:
            answer(connection, path, target)
        else:
            connection.close()
    except OSError:
        connection.close()
    finally:
        slots.release()


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if not host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + host)
    parent = os.getppid()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    listener.listen(MAX_CONNECTIONS)
    print("LISTENING", host, listener.getsockname()[1], flush=True)

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    while True:
        connection, _ = listener.accept()
        if not slots.acquire(timeout=STALL_SECONDS + 5):
            connection.close()
            continue
        threading.Thread(target=handle, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
