#!/usr/bin/env python3
"""BENCHMARKS.md section: `pekit load` (issue 75) against wrk, hey and locust, each sending GETs
to nginx on loopback (a server that costs almost nothing, so the figure is the client's) with 50
connections for the same seconds; interleaved rounds, medians. Also a Lua function building each
request, and the memory of a long run against a short one."""
import json, os, re, shutil, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release, start_nginx

SECONDS = int(os.environ.get("PEKIT_BENCH_LOAD_SECONDS", "5"))
LONG = int(os.environ.get("PEKIT_BENCH_LOAD_LONG", "60"))
ROUNDS = int(os.environ.get("PEKIT_BENCH_ROUNDS", "3"))
C = 50
pekit = os.path.join(release, "pekit")
work = tempfile.mkdtemp(prefix="pekit-bench-load-")
nginx, port = start_nginx(work)
url = f"http://127.0.0.1:{port}/ok"
script = os.path.join(work, "load.lua")
with open(script, "w") as f:
    f.write(f'function request(n) return {{ url = "{url}", headers = {{ ["X-Request"] = tostring(n) }} }} end\n')
locustfile = os.path.join(work, "locustfile.py")
with open(locustfile, "w") as f:
    f.write("from locust import constant, task\nfrom locust.contrib.fasthttp import FastHttpUser\n"
            "class User(FastHttpUser):\n    wait_time = constant(0)\n    @task\n    def ok(self):\n        self.client.get('/ok')\n")


def run(cmd):
    """Runs cmd; returns (stdout, max RSS in MB)."""
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


rows = {"wrk": [], "hey": [], "locust": [], "pekit": [], "pekit-lua": []}
latency = {}
for _ in range(ROUNDS):
    rows["wrk"].append(wrk())
    rows["hey"].append(hey())
    rps, _, result = pekit_load(url)
    rows["pekit"].append(rps)
    latency = result["latency"]["recorded"]
    rows["pekit-lua"].append(pekit_load(script)[0])
    got = locust()
    if got is not None:
        rows["locust"].append(got)
_, short_rss, _ = pekit_load(url, SECONDS)
_, long_rss, _ = pekit_load(url, LONG)
nginx.terminate()
med = {k: statistics.median(v) for k, v in rows.items() if v}
w = med["wrk"]
versions = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", "wrk", "hey", "nginx-light"], capture_output=True, text=True).stdout.strip().replace("\n", ", ")
locust_version = subprocess.run(["locust", "--version"], capture_output=True, text=True).stdout.strip() if shutil.which("locust") else "not installed"


def line(name, what):
    if name not in med:
        return f"| {what} | n/a | n/a |"
    return f"| {what} | {med[name]:,.0f} | {med[name] / w:.2f}× |"


print(f"""## Load runs (issue 75)

`python3 scripts/bench-tools/section_15_load.py` (part of `scripts/bench`): GETs of nginx's `/ok` on loopback
with {C} connections for {SECONDS} s each, {ROUNDS} interleaved rounds, medians ({versions}; {locust_version}).
`pekit load URL -c {C} -z {SECONDS}s`; `pekit load load.lua`: a Lua function building each request
(`function request(n) return {{url = …, headers = {{["X-Request"] = tostring(n)}}}} end`); wrk `-t1 -c{C}`;
hey `-c {C}`; locust headless, {C} FastHttpUsers without waits.

| client | requests/s | ÷ wrk |
|---|---|---|
{line("wrk", "wrk -t1")}
{line("pekit", "pekit load URL")}
{line("pekit-lua", "pekit load script.lua (a Lua function a request)")}
{line("hey", "hey")}
{line("locust", "locust (FastHttpUser)")}

Goals (issue 75): `pekit load URL` at least 0.8× wrk: {med['pekit'] / w:.2f}× ({'met' if med['pekit'] / w >= 0.8 else 'not met'});
a Lua function a request at least 0.5×: {med['pekit-lua'] / w:.2f}× ({'met' if med['pekit-lua'] / w >= 0.5 else 'not met'}).
pekit's recorded latency in the last round: p50 {latency.get('p50', 0)} µs, p99 {latency.get('p99', 0)} µs, max {latency.get('max', 0)} µs.

Memory, flat in the run's length: the largest resident set of a {SECONDS} s run {short_rss:.1f} MB, of a {LONG} s run
{long_rss:.1f} MB ({long_rss / short_rss:.2f}×).
""")
