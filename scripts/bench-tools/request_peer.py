#!/usr/bin/env python3
"""requests.Request(...).prepare() on the same GET requests as request_lua.lua."""
import json, sys, time, requests
n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
params = {f"key{i}": f"value {i} & 汉字" for i in range(1, 21)}
t = time.perf_counter(); total = 0
for _ in range(n):
    total += len(requests.Request("GET", "https://api.example.com/v1/items", params=params).prepare().url)
elapsed = time.perf_counter() - t
print(json.dumps({"impl": "python-requests", "requests": n, "per_second": round(n / elapsed), "url_bytes": total // n}))
