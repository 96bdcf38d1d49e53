#!/usr/bin/env python3
"""BENCHMARKS.md section: sending (issues 7 and 18), against nginx on loopback (a server that
costs almost nothing, so the figures are the clients'): sequential keep-alive GETs, many GETs
with 50 in flight, and the peak memory of 1,000 in flight."""
import json, os, shutil, statistics, subprocess, sys, tempfile, time
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tools = os.path.join(root, "scripts", "bench-tools")
pekit = os.path.join(root, ".build", "release", "pekit")
pekit_bench = os.path.join(root, ".build", "release", "pekit-bench")
SEQUENTIAL = int(os.environ.get("PEKIT_BENCH_REQUESTS", "10000"))
MANY, IN_FLIGHT, WIDE = int(os.environ.get("PEKIT_BENCH_MANY", "20000")), 50, 1000
ROUNDS = int(os.environ.get("PEKIT_BENCH_ROUNDS", "3"))
# One request after another is at the mercy of the machine's wake-up latency (each request waits
# for the server once), which swings by 30% from minute to minute here: more rounds.
SEQUENTIAL_ROUNDS = int(os.environ.get("PEKIT_BENCH_SEQUENTIAL_ROUNDS", "7"))

work = tempfile.mkdtemp(prefix="pekit-bench-send-")
os.makedirs(os.path.join(work, "files"))
with open(os.path.join(work, "files", "8k.bin"), "wb") as f:
    f.write(bytes(i % 251 for i in range(8192)))

sys.path.insert(0, tools)
from benchlib import start_nginx
# 8 KB at 4 KB/s: each transfer stays in flight about two seconds.
nginx, port = start_nginx(work, f"    location /files/ {{ alias {work}/files/; limit_rate 4k; }}\n")
url, slow = f"http://127.0.0.1:{port}/ok", f"http://127.0.0.1:{port}/files/8k.bin"

# The server's worker on the first CPU, every client on the second: one request after another
# then measures the clients, not where the scheduler happened to put them (unpinned, the same
# client's rate moves by 30% from run to run here).
CPUS = sorted(os.sched_getaffinity(0))
SERVER_CPU, CLIENT_CPU = (CPUS[0], CPUS[1]) if len(CPUS) >= 2 else (None, None)
if SERVER_CPU is not None:
    for pid in subprocess.run(["pgrep", "-P", str(nginx.pid)], capture_output=True, text=True).stdout.split() + [str(nginx.pid)]:
        os.sched_setaffinity(int(pid), {SERVER_CPU})

PINNED = True

def pin_client():
    if CLIENT_CPU is not None and PINNED:
        os.sched_setaffinity(0, {CLIENT_CPU})

def unpin_server():
    """Lets the scheduler put nginx's worker anywhere (the unpinned rounds)."""
    for pid in subprocess.run(["pgrep", "-P", str(nginx.pid)], capture_output=True, text=True).stdout.split() + [str(nginx.pid)]:
        os.sched_setaffinity(int(pid), set(CPUS))

def run(cmd):
    """Runs cmd: its stdout, wall seconds, CPU seconds (user + system) and peak RSS (KB)."""
    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, preexec_fn=pin_client)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        err.seek(0)
        sys.exit(f"{cmd[0]} failed: {err.read().decode(errors='replace')}")
    return out.decode(), wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss

def curl_config(target, n):
    path = os.path.join(work, f"urls-{n}.cfg")
    with open(path, "w") as f:
        for _ in range(n):
            f.write(f'url = "{target}"\noutput = "/dev/null"\n')
    return path

def from_json(cmd):
    out, wall, cpu, rss = run(cmd)
    doc = json.loads(out.splitlines()[-1])
    return doc["elapsed"], doc["times"], cpu, rss

def from_swift(cmd):
    out, wall, cpu, rss = run(cmd)
    return json.loads(out.splitlines()[-1])["elapsed"], [], cpu, rss

def from_curl(cmd):
    out, wall, cpu, rss = run(cmd)
    return wall, [float(x) for x in out.split()], cpu, rss

seq_cfg, many_cfg, wide_cfg = curl_config(url, SEQUENTIAL), curl_config(url, MANY), curl_config(slow, WIDE)
def without_spin(cmd):
    """cmd run with PEKIT_SPIN=0: pekit waits for every answer asleep, as curl does."""
    return ["env", "PEKIT_SPIN=0"] + cmd

sequential = {
    "pekit (`pekit.http.get` loop)": lambda: from_json([pekit, "run", os.path.join(tools, "send_lua.lua"), url, str(SEQUENTIAL)]),
    "pekit, PEKIT_SPIN=0 (asleep while waiting)": lambda: from_json(without_spin([pekit, "run", os.path.join(tools, "send_lua.lua"), url, str(SEQUENTIAL)])),
    "curl -K (a URL list)": lambda: from_curl(["curl", "-s", "-K", seq_cfg, "-w", "%{time_total}\\n"]),
    "pekit from Swift (`PekitClient.send` loop, no Lua)": lambda: from_swift([pekit_bench, "send", url, str(SEQUENTIAL)]),
    "python requests.Session": lambda: from_json([sys.executable, os.path.join(tools, "send_peer.py"), url, str(SEQUENTIAL)]),
}
concurrent = {
    f"pekit (`pekit.http.all`, concurrency {IN_FLIGHT})": lambda: from_json([pekit, "run", os.path.join(tools, "all_lua.lua"), url, str(MANY), str(IN_FLIGHT)]),
    f"curl --parallel --parallel-max {IN_FLIGHT}": lambda: from_curl(["curl", "-s", "--parallel", "--parallel-max", str(IN_FLIGHT),
                                                                      "-K", many_cfg, "-w", "%{time_total}\\n"]),
    f"pekit from Swift (`PekitClient.sendAll`, concurrency {IN_FLIGHT}, no Lua)": lambda: from_swift([pekit_bench, "send", url, str(MANY), str(IN_FLIGHT)]),
    f"python aiohttp (limit {IN_FLIGHT})": lambda: from_json([sys.executable, os.path.join(tools, "all_peer.py"), url, str(MANY), str(IN_FLIGHT)]),
}
wide = {
    f"pekit (`pekit.http.all`, concurrency {WIDE})": lambda: from_json([pekit, "run", os.path.join(tools, "all_lua.lua"), slow, str(WIDE), str(WIDE)]),
    # curl takes at most 300 in flight (--parallel-max is capped there).
    "curl --parallel --parallel-max 300": lambda: from_curl(["curl", "-s", "--parallel", "--parallel-max", "300",
                                                             "-K", wide_cfg, "-w", "%{time_total}\\n"]),
    f"python aiohttp (limit {WIDE})": lambda: from_json([sys.executable, os.path.join(tools, "all_peer.py"), slow, str(WIDE), str(WIDE)]),
}

def measure(group, n, rounds):
    results = {name: [] for name in group}
    for _ in range(rounds):  # interleaved, so drift in the machine hits every client alike
        for name, fn in group.items():
            results[name].append(fn())
    rows = {}
    for name, rs in results.items():
        times = sorted(t for _, ts, _, _ in rs for t in ts)
        pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1e6 if times else float("nan")
        rows[name] = dict(rate=statistics.median(n / e for e, _, _, _ in rs), p50=pick(0.5), p99=pick(0.99),
                          cpu=statistics.median(c / n for _, _, c, _ in rs) * 1e6, rss=statistics.median(r for _, _, _, r in rs) / 1024)
    return rows

def table(rows, peers):
    names = list(rows)
    out = ["| client | requests/s | p50 µs | p99 µs | CPU µs per request | peak RSS MB | " + " | ".join(f"÷ {p}" for p in peers) + " |",
           "|---" * (6 + len(peers)) + "|"]
    for name in names:
        r = rows[name]
        ratios = " | ".join(f"{r['rate'] / rows[names[i]]['rate']:.2f}×" for i in peers.values())
        latency = lambda x: "–" if x != x else f"{x:,.0f}"  # the Swift driver does not time each request
        out.append(f"| {name} | {r['rate']:,.0f} | {latency(r['p50'])} | {latency(r['p99'])} | {r['cpu']:,.1f} | {r['rss']:,.1f} | {ratios} |")
    return "\n".join(out)

seq_rows = measure(sequential, SEQUENTIAL, SEQUENTIAL_ROUNDS)
many_rows = measure(concurrent, MANY, ROUNDS)
wide_rows = measure(wide, WIDE, 1)
# Issue 32's goal, unpinned: the scheduler places server and clients as it likes, five rounds
# interleaved, medians.
UNPINNED_ROUNDS = int(os.environ.get("PEKIT_BENCH_UNPINNED_ROUNDS", "5"))
PINNED = False
unpin_server()
goal_seq = measure({k: sequential[k] for k in list(sequential)[:3]}, SEQUENTIAL, UNPINNED_ROUNDS)
goal_many = measure({k: concurrent[k] for k in list(concurrent)[:2]}, MANY, UNPINNED_ROUNDS)
nginx.terminate()
nginx.wait()
shutil.rmtree(work, ignore_errors=True)

pinned = f": CPU {SERVER_CPU} and CPU {CLIENT_CPU}" if SERVER_CPU is not None else "; not here: one CPU"
print(f"""## Sending (issues 7 and 18)

Against nginx (Debian `nginx-light`, one worker, started by the bench on a loopback port and stopped after), so
the server costs almost nothing and the figures are the clients'. The server's worker runs on one CPU and each
client on another (`sched_setaffinity`{pinned}). `/ok` answers `ok` from nginx's `return`.
Rates are requests over the time from the first request to the last answer (curl: its whole run, start-up
included); latencies are per request (curl's `time_total` for pekit and curl, `perf_counter` around each request
for Python); CPU time is the client process's user + system time over the whole run, start-up included, divided by
the requests; peak RSS is the client's `ru_maxrss`. Rounds interleaved ({SEQUENTIAL_ROUNDS} for one request after another,
{ROUNDS} for the others), medians. Made by `scripts/bench`
(this section alone: `python3 scripts/bench-tools/section_6_sending.py` after `swift build -c release`).

{SEQUENTIAL:,} sequential GETs over one kept-alive connection (`send_lua.lua`, `curl -K` with a URL list,
`send_peer.py`; and the same loop from Swift alone, `pekit-bench send`, to show what the Lua layer costs):

{table(seq_rows, {"curl": 2, "requests": 4})}

{MANY:,} GETs with {IN_FLIGHT} in flight (`all_lua.lua`: `pekit.http.all(list, {{concurrency = {IN_FLIGHT}}})`; curl's
`--parallel --parallel-max {IN_FLIGHT}` with a URL list; `all_peer.py`: aiohttp with `TCPConnector(limit={IN_FLIGHT})`):

{table(many_rows, {"curl": 1, "aiohttp": 3})}

{WIDE:,} GETs all in flight at once (an 8 KB file nginx sends at 4 KB/s, so each lasts about two seconds;
one round): the peak memory of holding a thousand transfers, bodies included. curl caps `--parallel-max` at 300,
so it needs four rounds of two seconds.

{table(wide_rows, {"curl": 1, "aiohttp": 2})}

Unpinned (issue 32's goal: at least 1.25× curl both ways from Lua, as the median of {UNPINNED_ROUNDS} interleaved rounds
with server and clients wherever the scheduler puts them):

{table(goal_seq, {"curl": 2})}

{table(goal_many, {"curl": 1})}

Goal: sequential {goal_seq[list(goal_seq)[0]]['rate'] / goal_seq[list(goal_seq)[2]]['rate']:.2f}×, with {IN_FLIGHT} in flight
{goal_many[list(goal_many)[0]]['rate'] / goal_many[list(goal_many)[1]]['rate']:.2f}× ({"met" if min(goal_seq[list(goal_seq)[0]]['rate'] / goal_seq[list(goal_seq)[2]]['rate'], goal_many[list(goal_many)[0]]['rate'] / goal_many[list(goal_many)[1]]['rate']) >= 1.25 else "not met"}).
""")
