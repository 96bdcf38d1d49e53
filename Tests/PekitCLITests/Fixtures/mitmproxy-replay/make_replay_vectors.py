#!/usr/bin/env python3
"""Generates replay-vectors.json: which recorded response mitmproxy's server replay answers each
request of a sequence with, for `pekit serve --mock --match-by mitmproxy` to be held to.

Peer: mitmproxy 11.0.2 (PyPI), `mitmdump --mode reverse:http://api.example.com --server-replay
session.har` with connection_strategy=lazy, server_replay_ignore_host and _port (pekit serve is
the host: it compares neither), and each case's server_replay_ignore_params and
server_replay_reuse. One mitmdump per sequence (replay pops what it serves). An answer is the
recorded entry's number (its body says it) or null where mitmproxy had nothing recorded.

Needs: python3 -m venv /tmp/mitm-venv && /tmp/mitm-venv/bin/pip install mitmproxy==11.0.2
Run:   python3 Tests/PekitCLITests/Fixtures/mitmproxy-replay/make_replay_vectors.py [MITMDUMP]
"""
import json, os, random, socket, subprocess, sys, time, urllib.request
HERE = os.path.dirname(os.path.abspath(__file__))
MITMDUMP = sys.argv[1] if len(sys.argv) > 1 else "/tmp/mitm-venv/bin/mitmdump"

# The recorded session: some requests more than once (replay serves them in order).
RECORDED = [
    ("GET", "/items?a=1&_=5"), ("GET", "/items?a=1&_=6"), ("GET", "/items?a=2"), ("GET", "/items?b=x%20y&a=1"),
    ("GET", "/items?a=&b"), ("GET", "/search?q=a+b"), ("GET", "/p;v=1?x=1"), ("GET", "/caf%C3%A9"),
    ("POST", "/login", "user=ann&pass=x"), ("POST", "/login", "user=bob&pass=y"), ("DELETE", "/items?a=1"),
    ("GET", "/items?a=1&a=2"), ("GET", "/items?a=2&a=1"),
]
entries = []
for n, spec in enumerate(RECORDED, 1):
    method, target = spec[0], spec[1]
    request = {"method": method, "url": "http://api.example.com" + target, "httpVersion": "HTTP/1.1", "headers": [],
               "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}
    if len(spec) > 2:
        request["postData"] = {"mimeType": "application/x-www-form-urlencoded", "text": spec[2]}
        request["headers"] = [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}]
        request["bodySize"] = len(spec[2])
    text = "entry %d" % n
    entries.append({"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1, "request": request,
                    "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                                 "headers": [{"name": "Content-Type", "value": "text/plain"}], "cookies": [],
                                 "content": {"size": len(text), "mimeType": "text/plain", "text": text},
                                 "redirectURL": "", "headersSize": -1, "bodySize": len(text)},
                    "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}})
har = {"log": {"version": "1.2", "creator": {"name": "make_replay_vectors.py", "version": "1"}, "entries": entries}}
with open(os.path.join(HERE, "session.har"), "w") as f:
    json.dump(har, f, indent=1)
    f.write("\n")

# Requests like the recorded ones and unlike them in the ways replay matchers differ.
POOL = [
    ("GET", "/items?a=1&_=5"), ("GET", "/items?a=1&_=99"), ("GET", "/items?a=1"), ("GET", "/items?_=1&a=1"),
    ("GET", "/items?a=2"), ("GET", "/items?a=%32"), ("GET", "/items?b=x+y&a=1"), ("GET", "/items?a=1&b=x%20y"),
    ("GET", "/items?b=x%20y&a=1"), ("GET", "/items?a=&b"), ("GET", "/items?a=&b="), ("GET", "/items?b&a="),
    ("GET", "/search?q=a%20b"), ("GET", "/search?q=a+b"), ("GET", "/p;v=2?x=1"), ("GET", "/p?x=1"), ("GET", "/p;v=1?x=1"),
    ("GET", "/caf%C3%A9"), ("GET", "/caf%c3%a9"), ("POST", "/login", "user=ann&pass=x"), ("POST", "/login", "pass=x&user=ann"),
    ("POST", "/login", "user=bob&pass=y"), ("DELETE", "/items?a=1"), ("GET", "/items?a=1&a=2"), ("GET", "/items?a=2&a=1"),
    ("GET", "/nothing"), ("PUT", "/items?a=1"),
]
rng = random.Random(20261207)
CASES = []
for ignore, reuse in [(["_"], False), (["_"], True), ([], False), (["_", "b"], False)]:
    for _ in range(2):
        CASES.append({"ignore_params": ignore, "reuse": reuse, "requests": [list(rng.choice(POOL)) for _ in range(30)]})

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    return port

def replay(case):
    port = free_port()
    cmd = [MITMDUMP, "-q", "--mode", "reverse:http://api.example.com", "-p", str(port), "--server-replay", os.path.join(HERE, "session.har"),
           "--set", "connection_strategy=lazy", "--set", "server_replay_ignore_host=true", "--set", "server_replay_ignore_port=true",
           "--set", "server_replay_extra=404", "--set", "server_replay_reuse=%s" % str(case["reuse"]).lower()]
    for name in case["ignore_params"]:
        cmd += ["--set", "server_replay_ignore_params=" + name]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
            except OSError:
                time.sleep(0.05)
        answers = []
        for spec in case["requests"]:
            body = spec[2].encode() if len(spec) > 2 else None
            request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, spec[1]), data=body, method=spec[0])
            if body is not None:
                request.add_header("Content-Type", "application/x-www-form-urlencoded")
            try:
                text = urllib.request.urlopen(request, timeout=10).read().decode()
            except Exception as e:
                text = ""
            answers.append(int(text.split()[1]) if text.startswith("entry ") else None)
        return answers
    finally:
        process.terminate(); process.wait()

for case in CASES:
    case["expected"] = replay(case)
with open(os.path.join(HERE, "replay-vectors.json"), "w") as f:
    json.dump(CASES, f, separators=(",", ":"))
    f.write("\n")
print(len(CASES), "sequences,", sum(len(c["requests"]) for c in CASES), "requests,",
      sum(1 for c in CASES for a in c["expected"] if a is not None), "answered from the recording")
