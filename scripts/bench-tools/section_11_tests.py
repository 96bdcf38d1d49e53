#!/usr/bin/env python3
"""BENCHMARKS.md section: what `pekit test` costs beyond the requests (issue 44). 1,000 trivial
tests, each one GET to nginx on loopback (a server that costs almost nothing) and one
expectation, against a plain `pekit run` script making the same 1,000 GETs and checks: the
difference, per test, is the runner's overhead (a fresh jar and environment a test, the hooks,
the captured output, the report)."""
import os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release, start_nginx

N = int(os.environ.get("PEKIT_BENCH_TESTS", "1000"))
ROUNDS = int(os.environ.get("PEKIT_BENCH_ROUNDS", "7"))
pekit = os.path.join(release, "pekit")
work = tempfile.mkdtemp(prefix="pekit-bench-test-")
nginx, port = start_nginx(work)
url = f"http://127.0.0.1:{port}/ok"
os.makedirs(os.path.join(work, "tests"))
with open(os.path.join(work, "tests", "trivial_test.lua"), "w") as f:
    f.write(f'local url = "{url}"\nfor i = 1, {N} do\n  test("get " .. i, function() expect(pekit.http.get(url)):status(200) end)\nend\n')
with open(os.path.join(work, "plain.lua"), "w") as f:
    f.write(f'local url = "{url}"\nfor i = 1, {N} do\n  local r = pekit.http.get(url)\n  assert(r.status == 200)\nend\n')

def wall(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

tests, plain = [], []
for _ in range(ROUNDS):  # interleaved, so both see the same machine
    tests.append(wall([pekit, "test", "tests"]))
    plain.append(wall([pekit, "run", "plain.lua"]))
nginx.terminate()
t, p = statistics.median(tests), statistics.median(plain)
overhead = (t - p) / N * 1000
print(f"""## pekit test (issue 44)

`python3 scripts/bench-tools/section_11_tests.py` (part of `scripts/bench`): {N:,} tests, each one GET to
nginx on loopback and one expectation (`expect(pekit.http.get(url)):status(200)`), run by `pekit test`,
against a `pekit run` script making the same {N:,} GETs and checks; medians of {ROUNDS} interleaved rounds.

| run | median | per test |
|---|---|---|
| `pekit test tests` | {t:.3f} s | {t / N * 1000:.3f} ms |
| `pekit run plain.lua` (the same requests and checks) | {p:.3f} s | {p / N * 1000:.3f} ms |
| the runner's overhead | {t - p:.3f} s | {overhead:.3f} ms |

Goal (issue 44): under 0.2 ms a test beyond the request. Ratio of the two runs: {t / p:.2f}×.
""")
