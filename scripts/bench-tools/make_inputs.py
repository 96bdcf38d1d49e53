#!/usr/bin/env python3
"""Writes the benchmark inputs (deterministic) into DIR: ascii.txt, cjk.txt, random.bin, and
their percent-encoded forms *.enc for the decoding runs. usage: make_inputs.py DIR [MB]"""
import os, random, sys, urllib.parse
out, mb = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4
size = mb * 1_000_000
rng = random.Random(1)
os.makedirs(out, exist_ok=True)
words = "the quick brown fox jumps over lazy dog query string cookie request encode value key name".split()
ascii_parts, n = [], 0
while n < size:
    w = rng.choice(words) + rng.choice(["", "", "", " ", " ", "-", "_", ".", "/", "=", "&", "é"])
    ascii_parts.append(w); n += len(w.encode())
cjk = "汉字漢字日本語한국어中文测试参数编码".encode()
samples = {
    "ascii.txt": "".join(ascii_parts).encode()[:size],
    "cjk.txt": (cjk * (size // len(cjk) + 1))[:size],
    "random.bin": bytes(rng.getrandbits(8) for _ in range(size)),
}
for name, data in samples.items():
    open(os.path.join(out, name), "wb").write(data)
    open(os.path.join(out, name + ".enc"), "wb").write(urllib.parse.quote(data, safe="").encode())
