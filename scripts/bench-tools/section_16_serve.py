#!/usr/bin/env python3
"""BENCHMARKS.md section: `pekit serve` (issue 74) under wrk -t1 -c50, beside nginx (a server
that costs almost nothing) and Python's threaded http.server reading the query (serve_peer.py),
each for the same seconds; interleaved rounds, medians. pekit serve records every request and
reads its query as each of its seven server models does; the count it shows after each run is
checked against wrk's (no request lost: wrk's count, plus at most the 50 still in flight when it
stopped)."""
import json, os, re, statistics, subprocess, sys, tempfile, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import free_port, release, start_nginx, tools

SECONDS = int(os.environ.get("PEKIT_BENCH_SERVE_SECONDS", "5"))
ROUNDS = int(os.environ.get("PEKIT_BENCH_ROUNDS", "3"))
C = 50
PATH = "/items?tags[]=a&tags[]=b&u[name]=x+y&n=1"
work = tempfile.mkdtemp(prefix="pekit-bench-serve-")
nginx, nginx_port = start_nginx(work)


def wait(port):
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_ready", timeout=1).read()
            return
        except Exception as error:  # an HTTP error answer is a server that answers
            if hasattr(error, "code"):
                return
            time.sleep(0.05)


def wrk(port, path):
    out = subprocess.run(["wrk", "-t1", f"-c{C}", f"-d{SECONDS}s", f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, text=True).stdout
    count = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Socket errors: (.*)|Non-2xx or 3xx responses: (\d+)", out)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), count, errors.group(0) if errors else None


rows = {"nginx": [], "pekit": [], "python": []}
checks = []
for _ in range(ROUNDS):
    rows["nginx"].append(wrk(nginx_port, "/ok")[0])
    port = free_port()
    serve = subprocess.Popen([os.path.join(release, "pekit"), "serve", "--listen", f"127.0.0.1:{port}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait(port)
    rate, count, errors = wrk(port, PATH)
    rows["pekit"].append(rate)
    total = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/_pekit/requests").read())["total"] - 1  # /_ready
    checks.append((count, total, errors))
    serve.terminate()
    serve.wait()
    port = free_port()
    peer = subprocess.Popen([sys.executable, os.path.join(tools, "serve_peer.py"), str(port)])
    wait(port)
    rows["python"].append(wrk(port, PATH)[0])
    peer.terminate()
    peer.wait()
nginx.terminate()
med = {k: statistics.median(v) for k, v in rows.items()}
lost = [c for c in checks if not (c[0] <= c[1] <= c[0] + C) or c[2]]
print(f"""## pekit serve (issue 74)

`python3 scripts/bench-tools/section_16_serve.py` (part of `scripts/bench`): `wrk -t1 -c{C} -d{SECONDS}s` against each
server on loopback, {ROUNDS} interleaved rounds, medians. `pekit serve` (release) records each request (`{PATH}`)
and reads its query as each of its seven server models does; nginx answers `/ok` from its configuration (the
ceiling of the machine); Python's threaded `http.server` parses the query with `parse_qs`
(`scripts/bench-tools/serve_peer.py`).

| server | requests/s | ÷ nginx | ÷ Python http.server |
|---|---|---|---|
| nginx (`return 200`) | {med['nginx']:,.0f} | 1.00× | {med['nginx'] / med['python']:.1f}× |
| pekit serve (recorded, 7 readings each) | {med['pekit']:,.0f} | {med['pekit'] / med['nginx']:.2f}× | {med['pekit'] / med['python']:.1f}× |
| Python http.server (threaded, parse_qs) | {med['python']:,.0f} | {med['python'] / med['nginx']:.2f}× | 1.0× |

No request lost: in each round pekit serve counted every request wrk completed, and at most the {C} in flight when wrk
stopped ({", ".join(f"wrk {c[0]:,}, pekit {c[1]:,}" for c in checks)}){"" if not lost else " — NOT MET: " + repr(lost)}.
""")
