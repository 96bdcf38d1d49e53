#!/usr/bin/env python3
"""BENCHMARKS.md section: sending (issue 7). 10,000 sequential GETs over keep-alive to the local
test server, from a pekit Lua loop, from curl with a URL list, and from requests.Session."""
import json, os, statistics, subprocess, sys, tempfile, time
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tools = os.path.join(root, "scripts", "bench-tools")
pekit = os.path.join(root, ".build", "release", "pekit")
N, ROUNDS = int(os.environ.get("PEKIT_BENCH_REQUESTS", "10000")), 3

server = subprocess.Popen([sys.executable, os.path.join(root, "Tests", "Server", "pekit_test_server.py")],
                          stdout=subprocess.PIPE, text=True)
port = json.loads(server.stdout.readline())["http"]
url = f"http://127.0.0.1:{port}/status/200"
work = tempfile.mkdtemp(prefix="pekit-bench-send-")
config = os.path.join(work, "urls.cfg")
with open(config, "w") as f:
    for _ in range(N):
        f.write(f'url = "{url}"\noutput = "/dev/null"\n')

def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out

def pekit_round():
    wall, out = timed([pekit, "run", os.path.join(tools, "send_lua.lua"), url, str(N)])
    base, _ = timed([pekit, "run", os.path.join(tools, "send_lua.lua"), url, "0"])  # start-up alone
    return wall - base, json.loads(out.splitlines()[-1])["times"]

def curl_round():
    wall, out = timed(["curl", "-s", "-K", config, "-w", "%{time_total}\\n"])
    return wall, [float(x) for x in out.split()]

def python_round():
    wall, out = timed([sys.executable, os.path.join(tools, "send_peer.py"), url, str(N)])
    return wall, json.loads(out.splitlines()[-1])["times"]

results = {"pekit (Lua loop)": [], "curl (URL list)": [], "python requests.Session": []}
for _ in range(ROUNDS):  # interleaved, so drift in the machine hits all three alike
    for name, fn in zip(results, (pekit_round, curl_round, python_round)):
        results[name].append(fn())
server.terminate()

def summary(rounds):
    rate = statistics.median(N / wall for wall, _ in rounds)
    times = sorted(t for _, ts in rounds for t in ts)
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1e6
    return rate, pick(0.5), pick(0.99)

rows = {name: summary(r) for name, r in results.items()}
curl_rate = rows["curl (URL list)"][0]
python_rate = rows["python requests.Session"][0]
print(f"""## Sending (issue 7)

{N:,} sequential GET requests to `/status/200` on the local test server (`Tests/Server/pekit_test_server.py`,
Python's threading HTTP server, on 127.0.0.1) over one kept-alive connection, {ROUNDS} rounds interleaved, medians:
`scripts/bench-tools/send_lua.lua` (a `pekit.http.get` loop; wall time minus the start-up of the same script with 0 requests),
`curl -K` with a list of {N:,} URLs, and `send_peer.py` (`requests.Session().get` in a loop). Latencies are per request:
curl's `time_total` for pekit and curl, `perf_counter` around each call for Python. The server is the same for all
three, and a good part of every figure is the server's own time.

| client | requests/s | p50 µs | p99 µs | ÷ curl | ÷ requests |
|---|---|---|---|---|---|""")
for name, (rate, p50, p99) in rows.items():
    print(f"| {name} | {rate:,.0f} | {p50:,.0f} | {p99:,.0f} | {rate / curl_rate:.2f}× | {rate / python_rate:.2f}× |")
print()
