#!/usr/bin/env python3
"""BENCHMARKS.md section: parsing URLs as the URL Standard does (issues 16 and 47), pekit from Swift
and from Lua against ada itself (C++, the yardstick: url_ada.cpp built here from the ada.cpp and
ada.h that PyPI's ada-url wheel carries, outside the repository, for this comparison only), node's
URL (ada inside node) and Python's urllib.parse.urlsplit, on the same 100,000 URLs."""
import glob, json, os, subprocess, sys, tempfile, zipfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import root, tools, release, row as run_row
def row(cmd):
    # An environment given as a leading {"NAME": "value"} (the byte API's row).
    if isinstance(cmd[0], dict):
        env = dict(os.environ, **cmd[0])
        out = subprocess.run(cmd[1:], check=True, capture_output=True, text=True, env=env).stdout
        return json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    return run_row(cmd)
ADA = "ada-url==4.0.0"
with tempfile.TemporaryDirectory() as work:
    urls = os.path.join(work, "urls.txt")
    subprocess.run([sys.executable, os.path.join(tools, "make_urls.py"), urls, "100000"], check=True)
    # ada from source: the wheel's amalgamation (ada.cpp, ada.h), compiled as ada's README builds it.
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:", "-d", work, ADA], check=True)
    zipfile.ZipFile(glob.glob(os.path.join(work, "ada_url-*.whl"))[0]).extractall(os.path.join(work, "wheel"))
    source = os.path.join(work, "wheel", "ada_url")
    ada = os.path.join(work, "url_ada")
    subprocess.run(["c++", "-O3", "-DNDEBUG", "-std=c++20", "-I", source, os.path.join(tools, "url_ada.cpp"),
                    os.path.join(source, "ada.cpp"), "-o", ada], check=True)
    commands = {"ada": [ada, urls],
                "swift": [os.path.join(release, "pekit-bench"), "urls", urls],
                "bytes": [{"PEKIT_BENCH_URL_BYTES": "1"}, os.path.join(release, "pekit-bench"), "urls", urls],
                "lua": [os.path.join(release, "pekit"), "run", os.path.join(tools, "url_lua.lua"), urls],
                "node": ["node", os.path.join(tools, "url_peers.js"), urls],
                "py": [sys.executable, os.path.join(tools, "url_peer.py"), urls]}
    # Rounds interleaved (the machine's load changes over a run), the median round of each.
    rounds = {name: [] for name in commands}
    for _ in range(3):
        for name, cmd in commands.items(): rounds[name].append(row(cmd))
    adarow, swift, bytes_api, lua, node, py = (sorted(rounds[name], key=lambda r: r["ms"])[1] for name in commands)
n = swift["count"]
def us(r): return r["ms"] * 1000 / n
lines = ["## Parsing URLs (issues 16 and 47)", "",
         f"{n:,} varied URLs (`scripts/bench-tools/make_urls.py`, a fixed seed: http(s), ws and non-special schemes, names,",
         "IPv4 in several forms, IPv6, ports, user info, dot segments, escapes, spaces and non-ASCII in paths and queries,",
         "5% internationalized names), each parsed and its href read. Each program times 5 runs and gives the median;",
         "three rounds of the five, interleaved, and the median round is shown.",
         f"The yardstick is ada {adarow['version']} itself (`ada::parse<ada::url_aggregator>(line)->get_href()`, C++): `scripts/bench-tools/url_ada.cpp`",
         f"compiled with `c++ -O3 -DNDEBUG -std=c++20` against the `ada.cpp` and `ada.h` of PyPI's `{ADA}` wheel, fetched and built in a",
         "temporary directory by this section's script, outside the repository and for this comparison only.",
         "Command: `swift build -c release && python3 scripts/bench-tools/section_9_urls.py` (part of `scripts/bench`).", "",
         "| | ms | µs a URL | ÷ ada | ÷ node | ÷ Python |", "|---|---|---|---|---|---|"]
for name, r in [("pekit from Swift (`WHATWGURL(text).href`)", swift),
                ("pekit from Swift, the byte API (`WHATWGURL.parse(bytes:base:_:)`: the href lent, no String made)", bytes_api), ("pekit from Lua (`pekit.url.parse(s).href`)", lua),
                (f"ada {adarow['version']} from C++", adarow),
                (f"node {node.get('ada') and 'URL (ada ' + node['ada'] + ')' or 'URL'}", node),
                ("Python `urllib.parse.urlsplit(s).geturl()`", py)]:
    lines.append(f"| {name} | {r['ms']:.0f} | {us(r):.2f} | {r['ms'] / adarow['ms']:.2f} | {r['ms'] / node['ms']:.2f} | {r['ms'] / py['ms']:.2f} |")
lines += ["", "Python's urlsplit does far less (no IDNA, no percent-encoding, no dot segments, no IPv4 forms): a floor, not",
          "a like-for-like peer. Goal (issue 16): faster than both from Swift, and not slower than node from Lua.",
          f"Goal (issue 47): at most 0.8 × ada's time from Swift: the byte API {bytes_api['ms'] / adarow['ms']:.2f} "
          f"({'met' if bytes_api['ms'] <= 0.8 * adarow['ms'] else 'not met'}), `WHATWGURL(text).href` {swift['ms'] / adarow['ms']:.2f} "
          f"({'met' if swift['ms'] <= 0.8 * adarow['ms'] else 'not met'}). Between the two rows: the href row makes the String of",
          "each href (its allocation, copy and UTF-8 check) and frees it, though text already in its serialized form, a quarter of these",
          "URLs, is its own href and makes none; the byte API checks that its input is UTF-8, which a String's own bytes are",
          "known to be. Both parsers refuse the same URLs (`failures` 0 for each here).", ""]
print("\n".join(lines))
