#!/usr/bin/env python3
"""BENCHMARKS.md section: the cookie jar (issue 5)."""
import json, os, subprocess, sys
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
bench = os.path.join(root, ".build", "release", "pekit-bench")
peer = os.path.join(root, "scripts", "bench-tools", "cookies_peer.py")
def run(cmd): return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
rows = []
for domains, per in [(1000, 10), (10, 10)]:
    rows.append((run([bench, "cookies", str(domains), str(per)]), run([sys.executable, peer, str(domains), str(per)])))
lines = ["## Cookie jar (issue 5)", "",
         "`pekit-bench cookies` against Python's `http.cookiejar` on the same Set-Cookie headers (10 per domain, with",
         "Domain, Path, Max-Age, Secure, HttpOnly, SameSite) and the same lookups (the Cookie header for a random site's URL).",
         "Lookups are medians of 5 runs; the second row has 100 times fewer unrelated domains.", "",
         "| jar | pekit parse+store /s | python parse+store /s | ratio | pekit lookup µs | python lookup µs | ratio | target |",
         "|---|---|---|---|---|---|---|---|"]
for ours, theirs in rows:
    lines.append(f"| {ours['cookies']} cookies, {ours['domains']} domains | {ours['parse_per_s']:,} | {theirs['parse_per_s']:,} | "
                 f"{ours['parse_per_s'] / theirs['parse_per_s']:.1f}× | {ours['lookup_us']:.2f} | {theirs['lookup_us']:.2f} | "
                 f"{theirs['lookup_us'] / ours['lookup_us']:.0f}× | lookup under 5 µs |")
lines += ["", f"Lookup cost with 1,000 domains ÷ with 10 domains: pekit {rows[0][0]['lookup_us'] / rows[1][0]['lookup_us']:.2f}, "
          f"python {rows[0][1]['lookup_us'] / rows[1][1]['lookup_us']:.2f} (1.00 means independent of unrelated domains).", ""]
# Ingest from Lua as a jar fills past its 3,000-cookie limit (issue 32): the cost per cookie at
# 1k, 10k and 100k received, against Python's extract_cookies on the same values (no limit there).
pekit = os.path.join(root, ".build", "release", "pekit")
ingest = os.path.join(root, "scripts", "bench-tools", "cookie_ingest.lua")
lines += ["Ingest from Lua (`pekit run scripts/bench-tools/cookie_ingest.lua N`: `jar:receive` of 10 values a domain, the",
          "jar at its 3,000 limit from the 300th domain on, so every later cookie evicts one) against Python's",
          "`extract_cookies` of the same values (`cookies_peer.py`, which keeps them all), medians of 3:", "",
          "| cookies received | pekit µs a cookie | python µs a cookie | ratio |", "|---|---|---|---|"]
for n in [1000, 10000, 100000]:
    ours = sorted(run([pekit, "run", ingest, str(n)])["us_per_cookie"] for _ in range(3))[1]
    theirs = sorted(1e6 / run([sys.executable, peer, str(n // 10), "10", "--no-lookups"])["parse_per_s"] for _ in range(3))[1]
    lines.append(f"| {n:,} | {ours:.1f} | {theirs:.1f} | {theirs / ours:.2f}× |")
lines.append("")
print("\n".join(lines))
