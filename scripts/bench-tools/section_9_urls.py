#!/usr/bin/env python3
"""BENCHMARKS.md section: parsing URLs as the URL Standard does (issue 16), pekit from Swift and
from Lua against node's URL (ada) and Python's urllib.parse.urlsplit, on the same 100,000 URLs."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import root, tools, release, row
with tempfile.TemporaryDirectory() as work:
    urls = os.path.join(work, "urls.txt")
    subprocess.run([sys.executable, os.path.join(tools, "make_urls.py"), urls, "100000"], check=True)
    commands = {"swift": [os.path.join(release, "pekit-bench"), "urls", urls],
                "lua": [os.path.join(release, "pekit"), "run", os.path.join(tools, "url_lua.lua"), urls],
                "node": ["node", os.path.join(tools, "url_peers.js"), urls],
                "py": [sys.executable, os.path.join(tools, "url_peer.py"), urls]}
    # Rounds interleaved (the machine's load changes over a run), the median round of each.
    rounds = {name: [] for name in commands}
    for _ in range(3):
        for name, cmd in commands.items(): rounds[name].append(row(cmd))
    swift, lua, node, py = (sorted(rounds[name], key=lambda r: r["ms"])[1] for name in commands)
n = swift["count"]
def us(r): return r["ms"] * 1000 / n
lines = ["## Parsing URLs (issue 16)", "",
         f"{n:,} varied URLs (`scripts/bench-tools/make_urls.py`, a fixed seed: http(s), ws and non-special schemes, names,",
         "IPv4 in several forms, IPv6, ports, user info, dot segments, escapes, spaces and non-ASCII in paths and queries,",
         "5% internationalized names), each parsed and its href read. Each program times 5 runs and gives the median;",
         "three rounds of the four, interleaved, and the median round is shown.",
         "Command: `swift build -c release && python3 scripts/bench-tools/section_9_urls.py` (part of `scripts/bench`).", "",
         "| | ms | µs a URL | ÷ node | ÷ Python |", "|---|---|---|---|---|"]
for name, r in [("pekit from Swift (`WHATWGURL(text).href`)", swift), ("pekit from Lua (`pekit.url.parse(s).href`)", lua),
                (f"node {node.get('ada') and 'URL (ada ' + node['ada'] + ')' or 'URL'}", node),
                ("Python `urllib.parse.urlsplit(s).geturl()`", py)]:
    lines.append(f"| {name} | {r['ms']:.0f} | {us(r):.2f} | {r['ms'] / node['ms']:.2f} | {r['ms'] / py['ms']:.2f} |")
lines += ["", "Python's urlsplit does far less (no IDNA, no percent-encoding, no dot segments, no IPv4 forms): a floor, not",
          "a like-for-like peer. Goal (issue 16): faster than both from Swift, and not slower than node from Lua.", ""]
print("\n".join(lines))
