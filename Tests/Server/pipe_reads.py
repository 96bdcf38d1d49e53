#!/usr/bin/env python3
"""Runs a command and tells how its standard output arrived through a pipe: the number of
bursts (reads separated by at least GAP seconds, default 0.2), the bytes, and the exit status,
as "BURSTS BYTES STATUS". A client that writes each piece of a slow body as it arrives shows one
burst a piece; one that holds it shows one.

Usage: pipe_reads.py [--gap S] COMMAND [ARGS...]
"""
import os
import subprocess
import sys
import time

args = sys.argv[1:]
gap = 0.2
if args[:1] == ["--gap"]:
    gap, args = float(args[1]), args[2:]
process = subprocess.Popen(args, stdout=subprocess.PIPE)
bursts, last, total = 0, None, 0
while True:
    data = os.read(process.stdout.fileno(), 1 << 20)
    if not data:
        break
    now = time.monotonic()
    if last is None or now - last >= gap:
        bursts += 1
    last, total = now, total + len(data)
print(bursts, total, process.wait())
