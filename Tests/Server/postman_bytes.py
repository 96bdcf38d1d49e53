#!/usr/bin/env python3
"""What pekit sends for each request of Postman's own collections, against what curl sends for the
command Postman's curl code generator prints for it (Fixtures/postman, made by
scripts/postman-fixtures, which names the sources and commits).

Each request is sent twice to a recorder on loopback that answers every request with 200: by
`pekit test --filter` of its one test in the collection, and by its curl command (run by bash in
the fixtures' directory, where its files are), both with the collection's hosts connected to the
recorder (pekit's --connect, curl's --connect-to). The two messages are compared as they arrived,
field order kept, save what differs by design: the User-Agent (pekit's and curl's own) and a
multipart body's boundary (random in both).

With --import, pekit sends each request from the test file `pekit import postman` prints for the
collection, run by `pekit test`, instead of from the collection itself.

Usage: postman_bytes.py --pekit PATH [--import] [--json OUT]
Prints one line a request; the JSON maps "collection #index name" to "same" or what differs.
"""

import argparse
import json
import os
import re
import subprocess
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "PekitCLITests", "Fixtures", "postman")
HOSTS = ["postman-echo.com", "www.postman-echo.com", "httpbin.org"]
sys.path.insert(0, HERE)
from hurl_bytes import Recorder  # noqa: E402  (one recorder for both suites; Recorder() answers itself)


def normalized(request):
    head, _, body = request.partition(b"\r\n\r\n")
    lines = [line for line in head.split(b"\r\n") if not re.match(rb"(?i)user-agent:", line)]
    out = b"\r\n".join(lines) + b"\r\n\r\n" + body
    boundary = re.search(rb"boundary=\"?([^\r\n;\"]+)", head)
    if boundary:
        out = out.replace(boundary.group(1), b"BOUNDARY")
    return out


def lua_pattern(text):
    return re.sub(r"([^\w\s])", r"%\1", text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pekit", required=True)
    parser.add_argument("--json")
    parser.add_argument("--import", dest="imported", action="store_true")
    o = parser.parse_args()
    scratch = tempfile.mkdtemp()
    with open(os.path.join(FIXTURES, "curl.json"), encoding="utf-8") as handle:
        collections = json.load(handle)["collections"]
    recorder = Recorder()
    results = {}
    for collection, requests in collections.items():
        test_file = collection
        if o.imported:
            lua = subprocess.run([o.pekit, "import", "postman", collection], cwd=FIXTURES, capture_output=True)
            if lua.returncode != 0:
                for index, request in enumerate(requests):
                    results["%s #%d %s" % (collection, index, request["name"])] = "pekit import postman: " + lua.stderr.decode(errors="replace")[-800:]
                continue
            test_file = os.path.join(scratch, collection[:-5] + "_test.lua")
            with open(test_file, "wb") as handle:
                handle.write(lua.stdout)
        for index, request in enumerate(requests):
            key = "%s #%d %s" % (collection, index, request["name"])
            connect = [a for host in HOSTS for a in ("--connect", "%s:80=127.0.0.1:%d" % (host, recorder.port))]
            run = subprocess.run([o.pekit, "test", "--timeout", "10", "--filter", lua_pattern("$.item[%d])" % index)] + connect + [test_file],
                                 cwd=FIXTURES, capture_output=True, timeout=60)
            ours = recorder.take()
            subprocess.run(["bash", "-c", request["curl"] + " --connect-to ::127.0.0.1:%d -s -o /dev/null" % recorder.port],
                           cwd=FIXTURES, capture_output=True, timeout=60)
            theirs = recorder.take()
            if run.returncode != 0 or len(ours) != 1:
                results[key] = "pekit test exited %d having sent %d requests: %s" % (
                    run.returncode, len(ours), (run.stdout + run.stderr).decode(errors="replace")[-800:])
            elif len(theirs) != 1:
                results[key] = "curl sent %d requests" % len(theirs)
            elif normalized(ours[0]) != normalized(theirs[0]):
                results[key] = "pekit sent %r, curl sent %r" % (normalized(ours[0])[:700], normalized(theirs[0])[:700])
            else:
                results[key] = "same"
            print("%-4s %s" % ("ok" if results[key] == "same" else "DIFF", key))
    shutil.rmtree(scratch)
    same = sum(1 for v in results.values() if v == "same")
    print("%d of %d requests send what Postman's curl command sends" % (same, len(results)))
    if o.json:
        with open(o.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
