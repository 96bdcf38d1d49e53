#!/usr/bin/env python3
"""BENCHMARKS.md section: `pekit load` (issue 75) against wrk, hey and locust, each sending GETs
to nginx on loopback (a server that costs almost nothing, so the figure is the client's) with 50
connections for the same seconds; interleaved rounds, medians. Also a Lua function building each
request, the memory of a long run against a short one, and the corrected percentiles of a run
against a server that freezes 1 s every 10 s, beside those worked out by hand."""
import json, os, re, shutil, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release, start_nginx

SECONDS = int(os.environ.get("PEKIT_BENCH_LOAD_SECONDS", "5"))
LONG = int(os.environ.get("PEKIT_BENCH_LOAD_LONG", "60"))
ROUNDS = int(os.environ.get("PEKIT_BENCH_ROUNDS", "3"))
C = 50
pekit = os.path.join(release, "pekit")
work = tempfile.mkdtemp(prefix="pekit-bench-load-")
# One core for the server, one for the client (each client alike): where the scheduler put both on
# one core now and then, a run's figure halved, for wrk as for pekit.
PINNED = (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None
nginx, port = start_nginx(work, cpu=0 if PINNED else None)
url = f"http://127.0.0.1:{port}/ok"
script = os.path.join(work, "load.lua")
with open(script, "w") as f:
    f.write(f'function request(n) return {{ url = "{url}", headers = {{ ["X-Request"] = tostring(n) }} }} end\n')
# The same, not following redirects (as wrk does not): the fast path's requests.
script_nf = os.path.join(work, "load-nofollow.lua")
with open(script_nf, "w") as f:
    f.write(f'function request(n) return {{ url = "{url}", follow = false, headers = {{ ["X-Request"] = tostring(n) }} }} end\n')
FREEZE = int(os.environ.get("PEKIT_BENCH_FREEZE_SECONDS", "60"))
stall_server = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Server", "stall_server.py")
locustfile = os.path.join(work, "locustfile.py")
with open(locustfile, "w") as f:
    f.write("from locust import constant, task\nfrom locust.contrib.fasthttp import FastHttpUser\n"
            "class User(FastHttpUser):\n    wait_time = constant(0)\n    @task\n    def ok(self):\n        self.client.get('/ok')\n")


def run(cmd):
    """Runs cmd; returns (stdout, max RSS in MB)."""
    if PINNED:
        cmd = ["taskset", "-c", "1"] + cmd
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = status
    return out, usage.ru_maxrss / 1024


def wrk():
    out, _ = run(["wrk", "-t1", f"-c{C}", f"-d{SECONDS}s", url])
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def hey():
    out, _ = run(["hey", "-c", str(C), "-z", f"{SECONDS}s", url])
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def pekit_load(target, seconds=SECONDS):
    out, rss = run([pekit, "load", target, "-c", str(C), "-z", f"{seconds}s", "-o", "json", "--no-progress"])
    result = json.loads(out)
    return result["requests_per_second"], rss, result


def locust():
    if not shutil.which("locust"):
        return None
    out, _ = run(["locust", "-f", locustfile, "--headless", "-u", str(C), "-r", str(C), "-t", f"{SECONDS}s",
                  "--host", f"http://127.0.0.1:{port}", "--only-summary", "--json"])
    stats = json.loads(out[out.index("["):])
    total = sum(s["num_requests"] for s in stats)
    return total / SECONDS


rows = {"wrk": [], "hey": [], "locust": [], "pekit": [], "pekit-lua": [], "pekit-lua-nf": []}
latency = {}
for _ in range(ROUNDS):
    rows["wrk"].append(wrk())
    rows["hey"].append(hey())
    rps, _, result = pekit_load(url)
    rows["pekit"].append(rps)
    latency = result["latency"]["recorded"]
    rows["pekit-lua"].append(pekit_load(script)[0])
    rows["pekit-lua-nf"].append(pekit_load(script_nf)[0])
    got = locust()
    if got is not None:
        rows["locust"].append(got)
_, short_rss, _ = pekit_load(url, SECONDS)
_, long_rss, _ = pekit_load(url, LONG)
nginx.terminate()


FROZEN_PERCENTILES = [91, 92, 93, 94, 95, 96, 97, 98, 99, 99.5]


def freeze_run():
    """`pekit.http.load{rate = 100, connections = 150}` for FREEZE seconds against stall_server.py
    freezing 1 s every 10 s (the first time after 450 requests, 4.5 s in). Each freeze holds the
    100 requests the schedule meant to start in it, answered at its end: 1000, 990, ... 10 ms after
    their intended start, once a freeze; every other request takes a few ms. So of N answers
    sorted, the last 100 x F are the frozen ones, each 10 ms step F times: the value at rank r
    (HdrHistogram's: round(p x N)) is 10 ms x ceil((r - (N - 100 F)) / F), plus what the server
    takes to answer at a freeze's end: the median, over percentiles 91 to 99.5 (all among the
    frozen requests), of pekit's value less the 10 ms steps (as LoadRunnerTests takes it; one slow
    answer does not move it). Returns (rows of (percentile, worked out, measured) in us, the
    run's figures, F, that offset)."""
    server = subprocess.Popen([sys.executable, stall_server, "450", "1000", "10000"], stdout=subprocess.PIPE, text=True)
    port = json.loads(server.stdout.readline())["port"]
    wanted = FROZEN_PERCENTILES + [99.9, 99.99, 50]
    lua = (f'local r = pekit.http.load{{ request = "http://127.0.0.1:{port}/", rate = 100, connections = 150, duration = {FREEZE} }}\n'
           'local c, at = r.corrected, {}\n'
           f'for _, p in ipairs{{ {", ".join(map(str, wanted))} }} do at[#at + 1] = c:percentile(p) end\n'
           'print(pekit.json.encode{ count = c:count(), max = c:max(), at = at, errors = r.errors.total, behind = r.behind, recorded_p99 = r.latency:percentile(99) })\n')
    try:
        out, _ = run([pekit, "run", "-e", lua])
    finally:
        server.terminate()
        server.wait()
    result = json.loads(out)
    at = dict(zip(wanted, result["at"]))
    n = result["count"]
    freezes = len([start for start in range(4, FREEZE, 10) if start + 1.5 <= FREEZE])

    def steps(p):
        rank = max(1, int(p / 100 * n + 0.5))
        q = rank - (n - 100 * freezes)
        return -(-q // freezes) if q > 0 else None

    offsets = sorted(at[p] - 10_000 * steps(p) for p in FROZEN_PERCENTILES if steps(p) is not None)
    overhead = offsets[len(offsets) // 2]
    table = [(f"p{p:g}", 10_000 * steps(p) + overhead, at[p]) for p in [99, 99.9, 99.99] if steps(p) is not None]
    return table, result | {"p50": at[50]}, freezes, overhead


freeze_table, freeze_result, freezes, freeze_overhead = freeze_run()
freeze_rows = "\n".join(f"| {name} | {expected:,} | {measured:,} | {abs(measured - expected) / expected * 100:.2f}% |"
                         for name, expected, measured in freeze_table)
med = {k: statistics.median(v) for k, v in rows.items() if v}
w = med["wrk"]
versions = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", "wrk", "hey", "nginx-light"], capture_output=True, text=True).stdout.strip().replace("\n", ", ")
locust_version = subprocess.run(["locust", "--version"], capture_output=True, text=True).stdout.strip() if shutil.which("locust") else "not installed"


def line(name, what):
    if name not in med:
        return f"| {what} | n/a | n/a |"
    return f"| {what} | {med[name]:,.0f} | {med[name] / w:.2f}× |"


pinning = "; nginx's worker on core 0 and each client on core 1 (`taskset -c 1`)" if PINNED else ""
print(f"""## Load runs (issue 75)

`python3 scripts/bench-tools/section_15_load.py` (part of `scripts/bench`): GETs of nginx's `/ok` on loopback
with {C} connections for {SECONDS} s each, {ROUNDS} interleaved rounds, medians ({versions}; {locust_version}){pinning}.
`pekit load URL -c {C} -z {SECONDS}s`; `pekit load load.lua`: a Lua function building each request
(`function request(n) return {{url = …, headers = {{["X-Request"] = tostring(n)}}}} end`); wrk `-t1 -c{C}`;
hey `-c {C}`; locust headless, {C} FastHttpUsers without waits.

| client | requests/s | ÷ wrk |
|---|---|---|
{line("wrk", "wrk -t1")}
{line("pekit", "pekit load URL")}
{line("pekit-lua", "pekit load script.lua (a Lua function a request)")}
{line("pekit-lua-nf", "pekit load script.lua (the same, `follow = false`)")}
{line("hey", "hey")}
{line("locust", "locust (FastHttpUser)")}

Goals (issue 75): `pekit load URL` at least 0.8× wrk: {med['pekit'] / w:.2f}× ({'met' if med['pekit'] / w >= 0.8 else 'not met'});
a Lua function a request at least 0.5×: {med['pekit-lua'] / w:.2f}× ({'met' if med['pekit-lua'] / w >= 0.5 else 'not met'}),
{med['pekit-lua-nf'] / w:.2f}× with `follow = false` ({'met' if med['pekit-lua-nf'] / w >= 0.5 else 'not met'}).
pekit's recorded latency in the last round: p50 {latency.get('p50', 0)} µs, p99 {latency.get('p99', 0)} µs, max {latency.get('max', 0)} µs.

Memory, flat in the run's length: the largest resident set of a {SECONDS} s run {short_rss:.1f} MB, of a {LONG} s run
{long_rss:.1f} MB ({long_rss / short_rss:.2f}×).

A server that freezes 1 s every 10 s (`Tests/Server/stall_server.py 450 1000 10000`: the first freeze after 450 requests),
`pekit.http.load{{request = URL, rate = 100, connections = 150, duration = {FREEZE}}}` (what `pekit load URL --rate 100 -c 150 -z {FREEZE}s` runs):
{freezes} freezes, {freeze_result["count"]:,} answers, {freeze_result["errors"]} errors,
{freeze_result["behind"]} starts behind the schedule. Each freeze holds the 100 requests the schedule meant to start in it,
answered at its end: 1000, 990, … 10 ms after their intended start, plus what the server takes to answer then
({freeze_overhead:,} µs here: the median over p91…p99.5, all frozen requests, of pekit's value less the 10 ms steps;
one slow answer does not move it); every other request takes a few ms. The corrected
percentiles, worked out by hand from that and as pekit gives them:

| percentile | worked out (µs) | pekit, corrected (µs) | difference |
|---|---|---|---|
{freeze_rows}

The corrected median: {freeze_result["p50"]:,} µs (the 90% of requests no freeze held). Uncorrected, p99 is
{freeze_result["recorded_p99"]:,} µs: the requests held by a freeze are late by the same time either way here
(150 connections leave none waiting for a connection), so the two agree but for the schedule's slack.
""")
