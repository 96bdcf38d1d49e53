#!/usr/bin/env python3
"""Runs every benchmark of scripts/bench and writes BENCHMARKS.md.
Each figure is a median of several runs; each ratio compares implementations measured in
this same run on the same input, so machine noise cancels as far as it can."""
import json, os, platform, subprocess, sys, datetime

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tools = os.path.join(root, "scripts", "bench-tools")
release = os.path.join(root, ".build", "release")
work = os.environ.get("PEKIT_BENCH_DIR", "/tmp/pekit-bench")
mb = int(os.environ.get("PEKIT_BENCH_MB", "4"))

def lines(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")]

def run_codec(op, files):
    rows = []
    rows += lines([os.path.join(release, "pekit-bench"), op, "unreserved"] + files)
    rows += lines([sys.executable, os.path.join(tools, "peers.py"), op, ""] + files)
    rows += lines(["lua5.4", os.path.join(tools, "peers.lua"), op] + files)
    return rows

def table(op, rows, inputs):
    impls = ["pekit", "pekit-string", "pekit-strict", "pekit-general", "foundation", "python", "lua-gsub"]
    impls = [i for i in impls if any(r["impl"] == i for r in rows)]
    out = ["| input | " + " | ".join(f"{i} MB/s" for i in impls) + " | pekit ÷ foundation | pekit ÷ python | pekit ÷ lua |",
           "|---" * (len(impls) + 4) + "|"]
    for name in inputs:
        got = {r["impl"]: r["mbps"] for r in rows if r["input"] == name}
        ratio = lambda peer: f"{got['pekit'] / got[peer]:.1f}×" if got.get(peer) else "n/a"
        out.append(f"| {name} | " + " | ".join(f"{got.get(i, 0):.0f}" for i in impls)
                   + f" | {ratio('foundation')} | {ratio('python')} | {ratio('lua-gsub')} |")
    return "\n".join(out)

def kernels(op, rows, inputs):
    """The loops alone, into one reused buffer, beside memcpy of the same input (issue 47)."""
    impls = [i for i in ["kernel-scalar", "kernel-ssse3", "kernel-avx512", "memcpy"] if any(r["impl"] == i for r in rows)]
    out = ["| input | " + " | ".join(f"{i} MB/s" for i in impls) + " | best ÷ scalar | best ÷ memcpy |",
           "|---" * (len(impls) + 3) + "|"]
    for name in inputs:
        got = {r["impl"]: r["mbps"] for r in rows if r["input"] == name}
        best = max(v for k, v in got.items() if k.startswith("kernel-"))
        out.append(f"| {name} | " + " | ".join(f"{got.get(i, 0):.0f}" for i in impls)
                   + f" | {best / got['kernel-scalar']:.1f}× | {best / got['memcpy']:.2f} |")
    return "\n".join(out)

def sets_table(rows, inputs):
    """`encode(bytes:)` under every preset allowed set, in MB/s, beside memcpy; the goals checked."""
    sets = [r["impl"][4:] for r in rows if r["input"] == inputs[0] and r["impl"].startswith("set-")]
    out = ["| allowed set | " + " | ".join(f"{n} MB/s" for n in inputs) + " | slowest | ≥ 3 GB/s | ≥ 4 GB/s (VBMI2) |",
           "|---" * (len(inputs) + 4) + "|"]
    for name in sets:
        got = [next(r["mbps"] for r in rows if r["input"] == i and r["impl"] == "set-" + name) for i in inputs]
        out.append(f"| {name} | " + " | ".join(f"{v:.0f}" for v in got) + f" | {min(got):.0f} | "
                   + ("met" if min(got) >= 3000 else "not met") + " | " + ("met" if min(got) >= 4000 else "not met") + " |")
    memcpy = [next(r["mbps"] for r in rows if r["input"] == i and r["impl"] == "memcpy") for i in inputs]
    out.append("| (memcpy, the yardstick) | " + " | ".join(f"{v:.0f}" for v in memcpy) + " | | | |")
    return "\n".join(out)

subprocess.run([sys.executable, os.path.join(tools, "make_inputs.py"), work, str(mb)], check=True)
names = ["ascii.txt", "cjk.txt", "random.bin"]
enc_rows = run_codec("encode", [os.path.join(work, n) for n in names])
dec_rows = run_codec("decode", [os.path.join(work, n + ".enc") for n in names])
set_rows = lines([os.path.join(release, "pekit-bench"), "encode-sets"] + [os.path.join(work, n) for n in names])
vbmi2 = "avx512_vbmi2" in open("/proc/cpuinfo").read().split()

cpu = "unknown"
try:
    cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
except Exception:
    pass
doc = f"""# Benchmarks

Produced by `scripts/bench` (release build) on {datetime.date.today()}, {cpu}, {os.cpu_count()} cores,
{platform.python_implementation()} {platform.python_version()}. Every figure is the median of several runs; ratios
compare implementations measured in the same run on the same bytes. Inputs are {mb} MB each, made by
`scripts/bench-tools/make_inputs.py`: mostly-ASCII text, CJK text, random bytes.

## Percent-encoding (allowed set: RFC 3986 unreserved)

- `pekit`: `PercentEncoder.encode(bytes:)`; `pekit-string`: `PercentEncoder.encode(_: String)`.
- `foundation`: `String.addingPercentEncoding(withAllowedCharacters:)` with the same set (random bytes are
  first repaired to valid UTF-8, since Foundation takes a `String`).
- `python`: `urllib.parse.quote(bytes, safe="")`; `lua-gsub`: the usual `s:gsub("[^%w%-._~]", …)` under `lua5.4`.

{table("encode", enc_rows, names)}

Targets (issue 2): at least 1 GB/s (1000 MB/s) on mostly-ASCII text and at least 20× Foundation on every input.
Targets (issue 47): at least 3 GB/s on every input, and 4 GB/s where the CPU has AVX-512 VBMI2.

The kernels alone (`CPercentKernels`, chosen for the CPU at first use; the rows are the levels this CPU
runs), each writing into one reused buffer, beside `memcpy` of the same input as the yardstick:

{kernels("encode", enc_rows, names)}

Every preset allowed set (`pekit-bench encode-sets`: `PercentEncoder(allowed: set).encode(bytes:)` on the same
inputs, medians of 7, memcpy of the same input in the same run as the yardstick). This CPU
{"has" if vbmi2 else "does not have"} AVX-512 VBMI2, so the goal that applies is {"4" if vbmi2 else "3"} GB/s:

{sets_table(set_rows, names)}

A large output is measured first by a count kernel (the popcount of each 64-byte block's escape mask, about four
times the encoder's speed), unless its first 4 KB mostly escape; so the array is made at its own size and nothing
is copied. Until 2026-12-05 it was written into room for the worst case and copied down when most of that went
unused, which held mostly-ASCII text to 3.0–3.3 GB/s on this machine.

## Percent-decoding (the encoded forms of the same inputs)

- `pekit`: `PercentDecoder().decode(bytes:)` (lenient); `pekit-strict`: `PercentDecoder(mode: .strict)`, the
  same kernels (a bad escape sends the input to the general loop, which names its place); `pekit-general`: the same decoder's general loop
  alone, which the kernels (issue 47) are held to; `foundation`: `String.removingPercentEncoding`;
  `python`: `urllib.parse.unquote_to_bytes`; `lua-gsub`: `s:gsub("%%(%x%x)", …)`.

{table("decode", dec_rows, [n + ".enc" for n in names])}

Targets (issue 47): at least 2 GB/s on every input, and 6 GB/s with AVX-512. The kernels alone:

{kernels("decode", dec_rows, [n + ".enc" for n in names])}
"""
for extra in sorted(os.listdir(tools)):
    if extra.startswith("section_") and extra.endswith(".py"):  # section_N_name.py, in N order
        doc += "\n" + subprocess.run([sys.executable, os.path.join(tools, extra)], check=True,
                                     capture_output=True, text=True).stdout
path = os.path.join(root, "BENCHMARKS.md")
with open(path + ".tmp", "w") as f:
    f.write(doc)
os.replace(path + ".tmp", path)
print(doc)
