#!/usr/bin/env python3
"""BENCHMARKS.md section: pekit.encode from Lua on 4 MB inputs against the scalar kernel (issue 70).

For each input of make_inputs.py (mostly-ASCII, CJK, random bytes; 4 MB): the scalar C kernel
writing into one reused buffer and pekit's encoder from Swift (`pekit-bench encode unreserved`),
and pekit.encode from Lua (`pekit run encode_lua.lua`): a fresh process's first call, its next
four, and the steady state; 5 interleaved rounds (a process each), medians."""
import json, os, statistics, subprocess, sys, tempfile
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pekit = os.path.join(root, ".build", "release", "pekit")
bench = os.path.join(root, ".build", "release", "pekit-bench")
tools = os.path.join(root, "scripts", "bench-tools")
work = tempfile.mkdtemp(prefix="pekit-bench-encode-lua-")
subprocess.run([sys.executable, os.path.join(tools, "make_inputs.py"), work, "4"], check=True)
inputs = ["ascii.txt", "cjk.txt", "random.bin"]
rows = {name: [] for name in inputs}
for _ in range(5):
    for name in inputs:
        path = os.path.join(work, name)
        swift = [json.loads(l) for l in subprocess.run([bench, "encode", "unreserved", path], check=True, capture_output=True, text=True).stdout.splitlines()]
        lua = json.loads(subprocess.run([pekit, "run", os.path.join(tools, "encode_lua.lua"), path], check=True, capture_output=True, text=True).stdout.splitlines()[-1])
        rows[name].append({"scalar": next(r["mbps"] for r in swift if r["impl"] == "kernel-scalar"),
                           "swift": next(r["mbps"] for r in swift if r["impl"] == "pekit-sustained"),
                           "first": lua["first"], "later": statistics.median(lua["second_to_fifth"]),
                           "sustained": lua["sustained"]})
med = {name: {k: statistics.median(r[k] for r in rows[name]) for k in rows[name][0]} for name in inputs}
lines = ["## pekit.encode from Lua on 4 MB (issue 70)", "",
         "`python3 scripts/bench-tools/section_14_encode_lua.py`: for each 4 MB input, the scalar C kernel writing into one",
         "reused buffer and pekit's encoder from Swift, sustained (`pekit-bench encode unreserved FILE`), and `pekit.encode`",
         "from Lua (`pekit run scripts/bench-tools/encode_lua.lua FILE`): a fresh process's first call, the median of its",
         "next four, and the steady state (7 runs of 15 calls, each run timed whole, the median). 5 interleaved rounds,",
         "a process each, medians. MB/s of input.", "",
         "| input | scalar kernel | Swift | Lua, first call | Lua, calls 2–5 | Lua, steady | Lua steady ÷ scalar | Swift ÷ scalar | goal ≥ 2.3× |",
         "|---|---|---|---|---|---|---|---|---|"]
for name in inputs:
    m = med[name]
    lua_ratio, swift_ratio = m["sustained"] / m["scalar"], m["swift"] / m["scalar"]
    lines.append(f"| {name} | {m['scalar']:.0f} | {m['swift']:.0f} | {m['first']:.0f} | {m['later']:.0f} | {m['sustained']:.0f} | "
                 f"{lua_ratio:.1f}× | {swift_ratio:.1f}× | {'met' if min(lua_ratio, swift_ratio) >= 2.3 else 'not met'} |")
lines += ["", "The goal holds in the steady state, as the kernel's yardstick is measured (its buffer reused). A fresh",
          "process's first call writes its result (12 MB for CJK text) into pages the kernel must fault in and zero,",
          "which no reuse can spare it, and which cost it more than the encoding (the first call's rate against the",
          "steady one); since a result of a megabyte or more is charged to Lua's collector before its block",
          "is taken (2026-12-06), the calls after it reuse the pages of the results before (the median of calls 2–5 is",
          "near the steady rate).", ""]
print("\n".join(lines))
