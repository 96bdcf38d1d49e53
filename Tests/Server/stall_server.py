#!/usr/bin/env python3
"""A minimal HTTP/1.1 server on 127.0.0.1 that answers every request at once with 200 "ok"
(keep-alive), except that from the (AFTER+1)th request on, for MS milliseconds, each request
waits until that time is over: a server that froze, for pekit load's coordinated-omission tests.
With EVERY, it freezes again for MS milliseconds every EVERY milliseconds after the first freeze
began (1 s every 10 s: `stall_server.py 450 1000 10000`).
One asyncio loop, no threads, so that the answers held by the freeze all go out within a
millisecond or two of its end (a thread per connection would spread them over tens of ms).

Usage: stall_server.py AFTER MS [EVERY]    (prints {"port": N} on its first line, then serves until killed)
"""
import asyncio
import json
import sys
import time

AFTER, LENGTH = int(sys.argv[1]), float(sys.argv[2]) / 1000
EVERY = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else None
state = {"count": 0, "first": None}


def frozen_until(now):
    """The end of the freeze `now` falls in, or None."""
    first = state["first"]
    if first is None:
        return None
    start = first if EVERY is None else first + EVERY * int((now - first) // EVERY)
    return start + LENGTH if now < start + LENGTH else None


async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length:
                await reader.readexactly(length)
            state["count"] += 1
            if state["first"] is None and state["count"] > AFTER:
                state["first"] = time.monotonic()
            until = frozen_until(time.monotonic())
            if until is not None:
                await asyncio.sleep(until - time.monotonic())
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=1024)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
