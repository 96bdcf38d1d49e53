#!/usr/bin/env python3
"""N GET requests with C in flight at once, with aiohttp (a C-connection limit on the session
and a semaphore): per-request times and the seconds from the first request to the last answer."""
import asyncio, json, sys, time
import aiohttp

async def main(url, n, c):
    times, size = [], 0
    connector = aiohttp.TCPConnector(limit=c)
    async with aiohttp.ClientSession(connector=connector) as session:
        gate = asyncio.Semaphore(c)
        async def one():
            nonlocal size
            async with gate:
                t = time.perf_counter()
                async with session.get(url) as r:
                    size += len(await r.read())
                    assert r.status == 200
                times.append(time.perf_counter() - t)
        start = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(n)))
        elapsed = time.perf_counter() - start
    print(json.dumps({"requests": n, "bytes": size, "elapsed": elapsed, "times": times}))

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
