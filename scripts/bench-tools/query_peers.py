#!/usr/bin/env python3
"""urllib.parse on the benchmark document: urlencode of the pre-flattened pairs (flattening not
timed), parse_qsl of the result."""
import json, sys, time, statistics, urllib.parse
doc = json.load(open(sys.argv[1]))
pairs = []
def flatten(prefix, v):
    if isinstance(v, dict):
        for k, x in v.items(): flatten(f"{prefix}[{k}]" if prefix else k, x)
    elif isinstance(v, list):
        for i, x in enumerate(v): flatten(f"{prefix}[{i}]", x)
    else:
        pairs.append((prefix, v))
flatten("", doc)
# Three calls first, then the median of `runs`, as every row of the section.
def median(f, runs=7):
    f(); f(); f(); t = []
    for _ in range(runs):
        s = time.perf_counter(); f(); t.append((time.perf_counter() - s) * 1000)
    return statistics.median(t)
out = urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)
print(json.dumps({"impl": "python", "encode_ms": median(lambda: urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)),
                  "parse_ms": median(lambda: urllib.parse.parse_qsl(out)), "bytes": len(out), "pairs": len(pairs)}))
