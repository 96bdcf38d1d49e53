#!/usr/bin/env python3
"""BENCHMARKS.md section: pekit.crypto and SigV4 signing (issue 17), against `openssl speed`
(libcrypto itself), Python's hashlib/hmac and botocore."""
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import root, tools, release, row
def openssl(args):
    out = subprocess.run(["openssl", "speed", "-bytes", "1048576", "-seconds", "3"] + args, capture_output=True, text=True).stdout
    kbps = float(re.findall(r"([\d.]+)k\s*$", out.strip().splitlines()[-1])[0])
    return kbps * 1000 / 1048576  # MiB/s, as the others
ssl = {"sha256_mbps": openssl(["-evp", "sha256"]), "hmac_mbps": openssl(["-hmac", "sha256"])}
lua = row([os.path.join(release, "pekit"), "run", os.path.join(tools, "crypto_lua.lua")])
py = row([sys.executable, os.path.join(tools, "crypto_peer.py")])
swift = row([os.path.join(release, "pekit-bench"), "sigv4", "20000"])
lines = ["## Hashes and signing (issue 17)", "",
         "1 MiB inputs, 200 digests a run; a SigV4 request built and signed 20,000 times from Lua (`pekit.request` then",
         "`pekit.sign.aws_sigv4`), a built request signed 20,000 times from Swift, and an AWSRequest made and",
         "signed 5,000 times (botocore 1.x `SigV4Auth.add_auth`). Medians of 5 runs (openssl: its own 3-second run).",
         "Command: `swift build -c release && python3 scripts/bench-tools/section_8_crypto.py` (part of `scripts/bench`).", "",
         "| | sha256 MiB/s | ÷ openssl | HMAC-SHA256 MiB/s | ÷ openssl | SigV4 µs a request |", "|---|---|---|---|---|---|",
         f"| `openssl speed` (libcrypto) | {ssl['sha256_mbps']:.0f} | 1.00 | {ssl['hmac_mbps']:.0f} | 1.00 | |",
         f"| pekit from Lua (`pekit.crypto`, `pekit.sign.aws_sigv4`) | {lua['sha256_mbps']:.0f} | {lua['sha256_mbps'] / ssl['sha256_mbps']:.2f} | {lua['hmac_mbps']:.0f} | {lua['hmac_mbps'] / ssl['hmac_mbps']:.2f} | {lua['sigv4_us']:.1f} |",
         f"| pekit from Swift (`AWSSigV4.sign` on a built `PekitRequest`) | | | | | {swift['sigv4_us']:.1f} |",
         f"| pekit from Swift (`RequestBuilder` with `signer`: built and signed) | | | | | {swift['build_sigv4_us']:.1f} |",
         f"| Python (`hashlib`, `hmac`, botocore) | {py['sha256_mbps']:.0f} | {py['sha256_mbps'] / ssl['sha256_mbps']:.2f} | {py['hmac_mbps']:.0f} | {py['hmac_mbps'] / ssl['hmac_mbps']:.2f} | {py['sigv4_us'] or 0:.1f} |",
         "", "Targets: digests within 10% of libcrypto (a ratio of 0.90 or more); a signed request in under 20 µs.", ""]
print("\n".join(lines))
