#!/usr/bin/env python3
"""Generates header-vectors.json: the header fields of a request as each real server's program sees them.

Models and the peers that produced them (all from Debian 12 / this machine), each a server run
here and sent every request over a socket:
  php      PHP 8.2's built-in server (php -S), $_SERVER's HTTP_* entries      (run_php_headers.php)
  rack     Rack 2.2 on WEBrick, the env's HTTP_* entries                      (run_rack_headers.rb)
  python   Python 3.11's wsgiref, the environ's HTTP_* entries                (run_python_headers.py)
  go       Go 1.19 net/http, r.Header (names sorted: Go's map has no order)    (run_go_headers.go)
  node     node's http module (Express runs on it), req.headers              (run_node_headers.js)

Each request is `GET / HTTP/1.1`, `Host: x`, then the fields of the case. Canonical form: a map is
{"$map": [[name, value], ...]}; a server that refuses the request: {"$error": "HTTP STATUS"}.

Needs: apt-get install php-cli ruby-rack ruby-webrick golang-go nodejs
Run:   python3 Tests/PekitCoreTests/Fixtures/header-servers/make_header_vectors.py
"""
import json, os, random, socket, subprocess, sys, time
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from peers import exchange, free_port, wait_for

CASES = [
    [("X-A", "1")], [("X-A", "1"), ("X-A", "2")], [("X-A", "1"), ("x-a", "2")], [("X-A", "1"), ("X_A", "2")],
    [("X_A", "1")], [("X-A", "")], [("X-A", "  padded  ")], [("X-A", "a, b"), ("X-A", "c")],
    [("Cookie", "a=1"), ("Cookie", "b=2")], [("Accept", "text/html"), ("Accept", "*/*")],
    [("User-Agent", "one"), ("User-Agent", "two")], [("Authorization", "Basic a"), ("Authorization", "Basic b")],
    [("Referer", "http://a/"), ("Referer", "http://b/")], [("X-Forwarded-For", "1.1.1.1"), ("X-Forwarded-For", "2.2.2.2")],
    [("Content-Type", "text/plain")], [("X-Custom-Header", "v"), ("X-CUSTOM-HEADER", "w")], [("X-A-", "1")],
    [("X--A", "1"), ("X-_A", "2")], [("Accept-Language", "en"), ("accept-language", "fr")], [("X-A", "\u00e9")],
    [("Proxy", "evil")], [("X-Ok", "1"), ("X-A", "2"), ("X-Ok", "3")], [("Te", "trailers")], [("Connection", "keep-alive, X-A"), ("X-A", "1")],
    [("Via", "1.1 a"), ("Via", "1.1 b")], [("Age", "1"), ("Age", "2")], [("Location", "a"), ("Location", "b")],
    [("X-Ab", "1"), ("X-aB", "2"), ("x-AB", "3")], [("Dnt", "1")], [("Www-Authenticate", "x")], [("Expect", "x")],
]
NAMES = ["X-A", "x-a", "X_A", "X-B", "Cookie", "Accept", "User-Agent", "Authorization", "Referer", "X-Forwarded-For",
         "Accept-Language", "Content-Type", "Via", "X-Custom"]
VALUES = ["1", "2", "", " a ", "a, b", "a;b", "x=1", "\u00e9"]
# `--seed N --out FILE`: the random inputs from another seed, written to FILE instead (what
# LiveServerDifferentialTests runs on the real servers, a new seed each time).
ARGS = dict(zip(sys.argv[1::2], sys.argv[2::2]))
rng = random.Random(int(ARGS.get("--seed", 20261207)))
for _ in range(120):
    CASES.append([(rng.choice(NAMES), rng.choice(VALUES)) for _ in range(rng.randint(1, 5))])

def ask(port, fields):
    data = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(n.encode("latin-1") + b": " + v.encode("latin-1") + b"\r\n" for n, v in fields)
    head, body = exchange(port, data + b"Connection: close\r\n\r\n")
    status = head.split(b"\r\n")[0].split(b" ")[1].decode()
    if status != "200":
        return {"$error": "HTTP " + status}
    try:
        return json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        sys.exit("port %d answered %r to %r" % (port, (head + body)[:300], fields))

def serve(cmd, env=None):
    port = free_port()
    process = subprocess.Popen([c.replace("PORT", str(port)) for c in cmd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wait_for(port)
    try:
        return [ask(port, fields) for fields in CASES]
    finally:
        process.terminate(); process.wait()

# Connection: close is sent too, and is what each server then shows of it; the models are held
# to that as well.
results = {
    "php": serve(["php", "-S", "127.0.0.1:PORT", os.path.join(HERE, "run_php_headers.php")]),
    "rack": serve(["ruby", os.path.join(HERE, "run_rack_headers.rb"), "PORT"]),
    "python": serve(["/usr/bin/python3", os.path.join(HERE, "run_python_headers.py"), "PORT"]),
    "go": serve(["go", "run", os.path.join(HERE, "run_go_headers.go"), "PORT"], env=dict(os.environ, GOCACHE="/tmp/pekit-go-cache")),
    "node": serve(["node", os.path.join(HERE, "run_node_headers.js"), "PORT"]),
}
vectors = [{"fields": [[n, v] for n, v in fields], "expected": {m: results[m][i] for m in results}} for i, fields in enumerate(CASES)]
with open(ARGS.get("--out", os.path.join(HERE, "header-vectors.json")), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(len(vectors), "requests, each read by", ", ".join(results))
