#!/usr/bin/env python3
"""Python's urllib.parse.urlsplit on every line of a file, with geturl() (median of 5 runs, ms).
urlsplit does much less than the URL Standard (no IDNA, no percent-encoding, no dot segments,
no IPv4 forms), so it is a floor, not a like-for-like peer."""
import json, sys, time, urllib.parse
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
def run():
    n = 0
    for s in lines: n += len(urllib.parse.urlsplit(s).geturl())
run()
t = []
for _ in range(5):
    s = time.perf_counter(); run(); t.append((time.perf_counter() - s) * 1000)
t.sort()
print(json.dumps({"impl": "python", "ms": t[2], "count": len(lines)}))
