#!/usr/bin/env python3
"""Import, export back, import again: the same bytes.

For each of Postman's own collections (Fixtures/postman), pekit test sends its requests to a
recorder on loopback and writes them to a HAR file; `pekit export FORMAT` writes that HAR as
curl commands, a .http file, a Hurl file and a Postman collection; each is run again (the curl
commands by curl itself, the files by `pekit test`, and by `pekit test` of what `pekit import`
prints for them), and what reaches the recorder must be, request for request, byte for byte,
what the first run sent. A request a format refuses (with its reason) is counted as refused,
not compared.

With --random N (and --seed S), the requests are N random ones instead (methods, targets,
header fields and bodies of random bytes, text, line ends, `{{`, `#` and `\`, with and without the
fields the tools add), sent first by `pekit har replay` of a HAR file holding them; each format
must send each exactly as that did, or refuse it with its reason.

Usage: export_roundtrip.py --pekit PATH [--random N [--seed S]] [--json OUT]
"""

import argparse
import json
import os
import random
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
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--seed", type=int, default=72)
    o = parser.parse_args()
    if o.random:
        return random_requests(o)
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


def random_har(n, rng):
    """N random requests to postman-echo.com as a HAR file's entries."""
    safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~"
    text = safe + " !#$%&'()*+,/:;<=>?@[\\]^`{|}\"é€"
    def word(alphabet, lo, hi):
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))
    entries = []
    for _ in range(n):
        method = rng.choice(["GET", "GET", "POST", "POST", "PUT", "PATCH", "DELETE", "LINK"])
        path = "/".join(word(safe, 1, 6) for _ in range(rng.randint(1, 3)))
        query = "&".join("%s=%s" % (word(safe, 1, 5), word(safe + "%'!*()", 0, 6)) for _ in range(rng.randint(0, 3)))
        url = "http://postman-echo.com/" + path + ("?" + query if query else "")
        headers = []
        if rng.random() < 0.9:
            headers.append({"name": "User-Agent", "value": "agent/" + word(safe, 1, 4)})
        if rng.random() < 0.9:
            headers.append({"name": "Accept", "value": rng.choice(["*/*", "application/json", "text/html, */*;q=0.8"])})
        for _ in range(rng.randint(0, 3)):
            value = word(text, 1, 12).strip() or "v"
            if rng.random() < 0.15:
                value = "{{" + value + "}}"
            headers.append({"name": "X-" + word(safe.replace(".", "").replace("~", ""), 1, 8), "value": value})
        request = {"method": method, "url": url, "httpVersion": "HTTP/1.1", "headers": headers}
        kind = rng.choice(["none", "text", "lines", "crlf", "binary", "json"]) if method != "GET" else "none"
        if kind != "none":
            if kind == "binary":
                body = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
                post = {"mimeType": "application/octet-stream", "text": __import__("base64").b64encode(body).decode(), "encoding": "base64"}
            else:
                body = {"text": word(text, 1, 30).strip() or "x",
                        "lines": "\n".join(word(text, 1, 12).strip() or "y" for _ in range(rng.randint(2, 4))),
                        "crlf": "\r\n".join(word(safe, 1, 8) for _ in range(rng.randint(2, 4))),
                        "json": '{"a": %d, "b": "%s"}' % (rng.randint(0, 99), word(safe, 0, 8))}[kind]
                post = {"mimeType": "text/plain", "text": body}
            if rng.random() < 0.85:
                headers.append({"name": "Content-Type", "value": post["mimeType"]})
            request["postData"] = post
        entries.append({"startedDateTime": "2026-01-01T00:00:00Z", "time": 0, "request": request,
                        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                                     "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": 0}})
    return {"log": {"version": "1.2", "creator": {"name": "export_roundtrip.py", "version": "1"}, "entries": entries}}


def random_requests(o):
    """Each random request alone: sent by pekit har replay, exported, sent again."""
    rng = random.Random(o.seed)
    recorder = Recorder()
    connect = [a for host in HOSTS for a in ("--connect", "%s:80=127.0.0.1:%d" % (host, recorder.port))]
    scratch = tempfile.mkdtemp()
    results = {}
    try:
        document = random_har(o.random, rng)
        for number, entry in enumerate(document["log"]["entries"], 1):
            har = os.path.join(scratch, "r%d.har" % number)
            with open(har, "w", encoding="utf-8") as handle:
                json.dump(dict(document, log=dict(document["log"], entries=[entry])), handle)
            replay = subprocess.run([o.pekit, "har", "replay", har] + connect, capture_output=True, timeout=60)
            original = recorder.take()
            if len(original) != 1:
                results[str(number)] = {"replay": "pekit har replay sent %d (exit %d): %s" % (len(original), replay.returncode, replay.stderr.decode(errors="replace")[-300:])}
                continue
            verdicts = {}
            for fmt, ext in [("curl", "sh"), ("http", "http"), ("hurl", "hurl"), ("postman", "json")]:
                exported = subprocess.run([o.pekit, "export", fmt, har], capture_output=True, timeout=60)
                if exported.returncode != 0:
                    verdicts[fmt] = "refused: " + exported.stderr.decode(errors="replace").strip()
                    continue
                path = os.path.join(scratch, "r%d.%s" % (number, ext))
                with open(path, "wb") as handle:
                    handle.write(exported.stdout)
                if fmt == "curl":
                    subprocess.run(["bash", "-c", exported.stdout.decode().strip() + " --connect-to ::127.0.0.1:%d -s -o /dev/null" % recorder.port],
                                   cwd=scratch, capture_output=True, timeout=60)
                    how = "by curl"
                else:
                    again = subprocess.run([o.pekit, "test", "--timeout", "10"] + connect + [path], cwd=scratch, capture_output=True, timeout=60)
                    how = "by pekit test (exit %d: %s)" % (again.returncode, (again.stdout + again.stderr).decode(errors="replace")[-300:])
                sent = recorder.take()
                verdicts[fmt] = "same" if sent == original else "%s: first %r, again %r" % (how, original[0][:500], sent[:1])
            results[str(number)] = verdicts
    finally:
        shutil.rmtree(scratch)
    counts = {fmt: {"same": 0, "refused": 0, "differs": 0} for fmt in ["curl", "http", "hurl", "postman"]}
    for verdicts in results.values():
        for fmt, v in verdicts.items():
            if fmt in counts:
                counts[fmt]["same" if v == "same" else "refused" if v.startswith("refused") else "differs"] += 1
    print(json.dumps(counts))
    if o.json:
        with open(o.json, "w", encoding="utf-8") as handle:
            json.dump({"counts": counts, "requests": results}, handle, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
