#!/usr/bin/env python3
"""N sequential GET requests with requests.Session (one kept-alive connection): per-request
times and the seconds from the first request to the last answer."""
import json, sys, time
import requests
url, n = sys.argv[1], int(sys.argv[2])
session = requests.Session()
times, size = [], 0
start = time.perf_counter()
for _ in range(n):
    t = time.perf_counter()
    r = session.get(url)
    size += len(r.content)
    times.append(time.perf_counter() - t)
    assert r.status_code == 200
print(json.dumps({"requests": n, "bytes": size, "elapsed": time.perf_counter() - start, "times": times}))
