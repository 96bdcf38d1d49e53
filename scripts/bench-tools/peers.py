#!/usr/bin/env python3
"""Python peers for scripts/bench: urllib.parse.quote / unquote_to_bytes on the same files.
usage: peers.py encode|decode SAFE FILE...  (prints JSON lines like pekit-bench)"""
import json, os, sys, time, urllib.parse

def measure(n, fn, runs=5):
    fn()
    rates = []
    for _ in range(runs):
        t = time.perf_counter(); fn(); rates.append(n / 1e6 / (time.perf_counter() - t))
    return sorted(rates)[runs // 2]

op, safe, files = sys.argv[1], sys.argv[2], sys.argv[3:]
for path in files:
    data = open(path, "rb").read()
    name = os.path.basename(path)
    if op == "encode":
        mbps = measure(len(data), lambda: urllib.parse.quote(data, safe=safe))
    else:
        mbps = measure(len(data), lambda: urllib.parse.unquote_to_bytes(data))
    print(json.dumps({"op": op, "impl": "python", "input": name, "mbps": round(mbps, 1)}))
