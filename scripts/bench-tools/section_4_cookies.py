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
print("\n".join(lines))
