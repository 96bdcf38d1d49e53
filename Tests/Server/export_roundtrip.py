#!/usr/bin/env python3
"""Import, export back, import again: the same bytes.

For each of Postman's own collections (Fixtures/postman), pekit test sends its requests to a
recorder on loopback and writes them to a HAR file; `pekit export FORMAT` writes that HAR as
curl commands, a .http file, a Hurl file and a Postman collection; each is run again (the curl
commands by curl itself, the files by `pekit test`, and by `pekit test` of what `pekit import`
prints for them), and what reaches the recorder must be, request for request, byte for byte,
what the first run sent. A request a format refuses (with its reason) is counted as refused,
not compared.

Usage: export_roundtrip.py --pekit PATH [--json OUT]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "PekitCLITests", "Fixtures", "postman")
sys.path.insert(0, HERE)
from postman_bytes import HOSTS, Recorder  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pekit", required=True)
    parser.add_argument("--json")
    o = parser.parse_args()
    with open(os.path.join(FIXTURES, "curl.json"), encoding="utf-8") as handle:
        collections = list(json.load(handle)["collections"])
    recorder = Recorder()
    connect = [a for host in HOSTS for a in ("--connect", "%s:80=127.0.0.1:%d" % (host, recorder.port))]
    scratch = tempfile.mkdtemp()
    results = {}
    try:
        for collection in collections:
            har = os.path.join(scratch, collection + ".har")
            run = subprocess.run([o.pekit, "test", "--timeout", "10", "--har", har] + connect + [collection],
                                 cwd=FIXTURES, capture_output=True, timeout=120)
            original = recorder.take()
            if run.returncode != 0:
                results[collection] = {"run": "pekit test exited %d: %s" % (run.returncode, (run.stdout + run.stderr).decode(errors="replace")[-600:])}
                continue
            verdicts = {}
            for fmt, ext in [("curl", "sh"), ("http", "http"), ("hurl", "hurl"), ("postman", "json")]:
                exported = subprocess.run([o.pekit, "export", fmt, har], capture_output=True, timeout=60)
                if exported.returncode != 0:
                    verdicts[fmt] = "refused: " + exported.stderr.decode(errors="replace").strip()
                    continue
                path = os.path.join(scratch, collection[:-5] + "-exported." + ext)
                with open(path, "wb") as handle:
                    handle.write(exported.stdout)
                runs = []
                if fmt == "curl":
                    for line in exported.stdout.decode().splitlines():
                        subprocess.run(["bash", "-c", line + " --connect-to ::127.0.0.1:%d -s -o /dev/null" % recorder.port],
                                       cwd=scratch, capture_output=True, timeout=60)
                    runs.append(("by curl", recorder.take()))
                else:
                    again = subprocess.run([o.pekit, "test", "--timeout", "10"] + connect + [path], cwd=scratch, capture_output=True, timeout=120)
                    runs.append(("by pekit test", recorder.take() if again.returncode == 0 else again))
                    lua = subprocess.run([o.pekit, "import", fmt, path], cwd=scratch, capture_output=True, timeout=60)
                    imported = os.path.join(scratch, collection[:-5] + "-" + fmt + "_test.lua")
                    with open(imported, "wb") as handle:
                        handle.write(lua.stdout)
                    again = subprocess.run([o.pekit, "test", "--timeout", "10"] + connect + [imported], cwd=scratch, capture_output=True, timeout=120)
                    runs.append(("imported", recorder.take() if again.returncode == 0 and lua.returncode == 0 else again))
                verdict = "same"
                for how, sent in runs:
                    if isinstance(sent, subprocess.CompletedProcess):
                        verdict = "%s: exited %d: %s" % (how, sent.returncode, (sent.stdout + sent.stderr).decode(errors="replace")[-600:])
                    elif len(sent) != len(original):
                        verdict = "%s: %d requests, not %d" % (how, len(sent), len(original))
                    else:
                        for n, (a, b) in enumerate(zip(original, sent)):
                            if a != b:
                                verdict = "%s: request %d: first %r, again %r" % (how, n + 1, a[:600], b[:600])
                                break
                    if verdict != "same":
                        break
                verdicts[fmt] = verdict
            results[collection] = verdicts
            print(collection, " ".join("%s=%s" % (k, "same" if v == "same" else ("refused" if v.startswith("refused") else "DIFF")) for k, v in verdicts.items()))
    finally:
        shutil.rmtree(scratch)
    if o.json:
        with open(o.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
