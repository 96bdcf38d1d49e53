#!/usr/bin/env python3
"""BENCHMARKS.md section: start-up (issue 47). Medians of interleaved runs of pekit's quick
commands beside the floor in the same run: /bin/true, `lua5.4 -e ''`, and a Swift hello built
as pekit is (--static-swift-stdlib), with and without Foundation."""
import os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release

RUNS = int(os.environ.get("PEKIT_BENCH_STARTUP_RUNS", "200"))
pekit = os.path.join(release, "pekit")
work = tempfile.mkdtemp(prefix="pekit-bench-startup-")
hellos = {}
# The release build's static C++ runtime and unwinder (scripts/lib/deps.sh), as swiftc flags: the
# hellos are built both ways, so the floor is measured as pekit is linked and as Swift links.
flags = subprocess.run(["bash", "-c", f"source '{os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}/lib/deps.sh' && pekit_static_runtime_flags"],
                       capture_output=True, text=True).stdout.split()
runtime = [f for f, prev in zip(flags, [""] + flags) if prev == "-Xswiftc"]
for name, source in [("hello", 'print("hello")\n'), ("hello-foundation", 'import Foundation\nprint(Date.distantPast > Date.distantFuture)\n')]:
    path = os.path.join(work, name + ".swift")
    with open(path, "w") as f:
        f.write(source)
    for variant, flags in [("", []), ("-runtime", runtime)]:
        if variant and not runtime:
            continue
        subprocess.run(["swiftc", "-O", "-static-stdlib", path, "-o", os.path.join(work, name + variant), "-Xclang-linker", "-no-pie"] + flags,
                       check=True, capture_output=True)
        hellos[name + variant] = os.path.join(work, name + variant)
empty = os.path.join(work, "empty.lua")
open(empty, "w").close()
rows = [
    ("`/bin/true`", ["/bin/true"], None),
    ("`lua5.4 -e ''`", ["lua5.4", "-e", ""], None),
    ("a Swift hello, `-static-stdlib`, `-no-pie`", [hellos["hello"]], None),
    ("the same hello importing Foundation", [hellos["hello-foundation"]], None),
] + ([
    ("the hello with libstdc++ and the unwinder linked in, as pekit", [hellos["hello-runtime"]], None),
    ("the same importing Foundation", [hellos["hello-foundation-runtime"]], None),
] if runtime else []) + [
    ("`pekit --version`", [pekit, "--version"], 2.0),
    ("`pekit encode x`", [pekit, "encode", "x"], 2.0),
    ("`pekit request http://h/` (preview)", [pekit, "request", "http://h/"], 2.0),
    ("`pekit run empty.lua`", [pekit, "run", empty], 2.5),
]
times = {name: [] for name, _, _ in rows}
for _ in range(RUNS):
    for name, cmd, _ in rows:
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - start) * 1000)
lua = statistics.median(times["`lua5.4 -e ''`"])
print("## Start-up (issue 47)\n")
print(f"Medians of {RUNS} interleaved runs (wall time from Python's `subprocess.run`, the same for every row).")
print("Command: `scripts/bench` (its release build: `--static-swift-stdlib`, the executable linked `-no-pie`),")
print("or this section alone: `python3 scripts/bench-tools/section_12_startup.py` after that build.\n")
print("| program | ms | ÷ `lua5.4 -e ''` | target |")
print("|---|---|---|---|")
for name, _, target in rows:
    median = statistics.median(times[name])
    print(f"| {name} | {median:.2f} | {median / lua:.2f}× | {f'≤ {target}×' if target else ''} |")
print("\nWhat start-up no longer does: build any command's help text (the synopses are closures; the query")
print("servers' option lists were a fifth of `--version`), or load libedit and the libraries it needs")
print("(libtinfo, libbsd, libmd), which only `pekit repl` loads, with `dlopen`. libcurl and libcrypto")
print("were already loaded on first use. The executable is linked without PIE (scripts/lib/deps.sh), so the")
print("loader applies far fewer relocations. `StartupLibrariesTests` keeps the executable's NEEDED list to Lua and")
print("the Swift runtime. Nor does it touch Foundation's URL or FileManager to find a script's directory")
print("or the plugins beside the binary (FilePaths: dirname, realpath, readlink), build a dictionary of the")
print("whole environment, or make a Set or Dictionary of a new type where a list of a few entries serves: the")
print("first instance of each generic type is instantiated from its mangled name, and one with a Hashable key")
print("costs a search of the binary's conformance records (tens of microseconds each). What is left is")
print("mostly the kernel's (exec, page faults) and the loader's, then Lua's own state and the prelude (a module's")
print("tables are made the first time a script reads it).")
needed = [l.split("[")[1].rstrip("]") for l in subprocess.run(["readelf", "-d", pekit], capture_output=True, text=True).stdout.splitlines() if "(NEEDED)" in l]
print("\nSession 25: the release build links libstdc++ and the unwinder from GCC's static archives (the Swift")
print("runtime's C++ needs them; loading libstdc++.so and libgcc_s.so was a third of a Swift hello's start), takes")
print("no $ORIGIN run path (the loader tried each library in a dozen directories beside the binary first), and")
print("loads the Lua prelude precompiled (40 µs, where compiling it took 400). The preview no longer checks its")
print("rows against the send options (a debug-build assertion now), its wire form holds bounds as two integers")
print("(the first Range<Int> array instantiated Range's Comparable requirement: a search of every conformance")
print("record), and option help is made only when shown. The executable's NEEDED list: " + ", ".join(needed) + ".")
