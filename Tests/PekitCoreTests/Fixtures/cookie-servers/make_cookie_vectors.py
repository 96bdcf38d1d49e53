#!/usr/bin/env python3
"""Generates cookie-vectors.json: what each real server reads from a request's Cookie header.

Models and the peers that produced them (all from Debian 12 / this machine):
  php      PHP 8.2 $_COOKIE, through its built-in server (php -S)     (run_php_cookies.php)
  rack     Rack 2.2 Utils.parse_cookies_header (Rack::Request#cookies) (run_rack_cookies.rb)
  python   Python 3.11 http.cookies.SimpleCookie.load, on the header   (here)
           as WSGI hands it over (latin-1)
  go       Go 1.19 net/http: ReadRequest, then Request.Cookies        (run_go_cookies.go)
  express  the `cookie` package 0.5 parse (Express's cookie-parser),   (run_node_cookies.js)
           on the header as node's HTTP server hands it over (latin-1)

Canonical form of a result: a map is {"$map": [[name, value], ...]} in the server's order, Go's
list of cookies is [[name, value], ...], a string that is not UTF-8 is {"$bytes": hex}, a raised
error is {"$error": class, "message": text}.

Needs: apt-get install php-cli ruby-rack golang-go nodejs node-cookie
Run:   python3 Tests/PekitCoreTests/Fixtures/cookie-servers/make_cookie_vectors.py
"""
import http.cookies, json, os, random, socket, subprocess, sys, time
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from peers import exchange, free_port, run, wait_for

HEADERS = [
    # plain, repeated, spacing
    "a=1", "a=1; b=2", "a=1;b=2", "a=1;  b=2", "a=1 ; b=2", " a=1", "a=1 ", "a = 1", "a=1;", ";a=1", "a=1;;b=2",
    "a=1; a=2", "A=1; a=2", "a=1; b=2; a=3", "a=", "a", "a; b=2", "=1", "=", ";", "", "a=1\tb", "a=1;\tb=2", "\ta=1",
    "a=b=c", "a==b", "a=1, b=2", "a=1,b=2", "a,b=1", "a=1; b", "a=1;b;c=3",
    # quotes and backslashes
    'a="1"', 'a="a b"', 'a="a;b"', 'a="\\"x\\""', 'a="\\101"', 'a="\\377"', 'a=""', 'a="', 'a=x"', 'a="1"; b="2"',
    'a= "1" ', 'a="1" x', 'a=\\x', 'a="\\\\"',
    # escapes in values and names
    "a=%20", "a=+", "a=%2B", "a=a%3Bb", "a=%zz", "a=%", "a=%4", "a=%E5%B0%8F", "a=%FF", "a=%C3%28", "a=%00", "%61=1",
    "a%20b=1", "a+b=1", "a=%e9", "a=caf%C3%A9",
    # names servers change or refuse
    "a.b=1", "a b=1", "a[b]=1", "a[]=1; a[]=2", "a[b][c]=1", "a[=1", "a]=1", "[a]=1", "__Host-a=1", "..Host-a=1",
    "__Secure-a=1", "._Host-a=1", "$Version=1; a=1", "$Version=1; a=1; $Path=/", "a=1; $Path=/", "a=1; $foo=2",
    "Path=/; a=1", "a=1; Path=/", "a=1; path=/x; b=2", "a=1; HttpOnly", "a=1; Secure; b=2", "a=1; expires=x",
    "a=1; expires=Wed, 09 Jun 2021 10:18:14 GMT", "a=1; Max-Age=5", "a=1; comment=x", "a=1; samesite=lax",
    "__proto__=1", "constructor=1", "toString=1; a=2", "hasOwnProperty=1",
    # characters past the token set, and bytes past ASCII
    "a=1@2", "a=(1)", "a=1/2", "a=1?2", "a=1{2}", "a=<1>", "a=1:2", "a=[1]", "a@b=1", "a(b)=1", "a/b=1", "a?b=1",
    "a{b}=1", "a:b=1", "a=\x7f", "a\x7f=1", "a=\x01", "a=\xe9", "\xe9=1", "a=\xe5\xb0\x8f", "a=1;\xe9; b=2",
    "\xa0a=1\xa0", "a=\xa0", "a=\x85", "a=1\x0b; b=2", "b=1; 2=x; 1=y; 01=w; a=z",
    # nesting and limits
    "a[b]=1; a[b]=2", "a=1; a[b]=2", "a[b]=1; a=2", "a[=1; a[=2", "a.b=1; a_b=2", "; ".join("k%d=v" % i for i in range(1001)),
    "; ".join("k%d=v" % i for i in range(999)) + "; ;; a=1; b=2",
]

ATOMS = ["a", "b", "A", "1", "=", ";", "; ", " ", "\t", ",", '"', "\\", "%", "%20", "%2B", "+", "%FF", "%E5%B0%8F", "%zz",
         ".", "[", "]", "$", "Path", "path=/", "__Host-", "__proto__", "\xe9", "\x7f", "(", "@", "/", "?", "{", ":"]
# `--seed N --out FILE`: the random inputs from another seed, written to FILE instead (what
# LiveServerDifferentialTests runs on the real servers, a new seed each time).
ARGS = dict(zip(sys.argv[1::2], sys.argv[2::2]))
rng = random.Random(int(ARGS.get("--seed", 20261207)))
for _ in range(1500):
    HEADERS.append("".join(rng.choice(ATOMS) for _ in range(rng.randint(1, 12))))

def header_bytes(h):
    return h.encode("latin-1")

def php_results(headers):
    """Each header sent to a running `php -S` in its own request; its answer is $_COOKIE."""
    port = free_port()
    server = subprocess.Popen(["php", "-S", "127.0.0.1:%d" % port, os.path.join(HERE, "run_php_cookies.php")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port)
        results = []
        for h in headers:
            head, body = exchange(port, b"GET / HTTP/1.0\r\nHost: x\r\nCookie: " + header_bytes(h) + b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.0 200") and not head.startswith(b"HTTP/1.1 200"):
                sys.exit("php -S answered %r to %r" % (head[:40], h))
            results.append(json.loads(body))
        return results
    finally:
        server.terminate(); server.wait()

def python_result(h):
    cookie = http.cookies.SimpleCookie()
    try:
        cookie.load(header_bytes(h).decode("latin-1"))
    except Exception as e:
        return {"$error": type(e).__name__, "message": str(e)}
    return {"$map": [[k, m.value] for k, m in cookie.items()]}

items = [{"header_hex": header_bytes(h).hex()} for h in HEADERS]
results = {
    "php": php_results(HEADERS),
    "rack": run(["ruby", os.path.join(HERE, "run_rack_cookies.rb")], items),
    "python": [python_result(h) for h in HEADERS],
    "go": run(["go", "run", os.path.join(HERE, "run_go_cookies.go")], items,
              env=dict(os.environ, GOCACHE="/tmp/pekit-go-cache", GOFLAGS="-mod=mod")),
    "express": run(["node", os.path.join(HERE, "run_node_cookies.js")], items, env=dict(os.environ, NODE_PATH="/usr/share/nodejs")),
}
vectors = [{"header_hex": item["header_hex"], "expected": {model: results[model][i] for model in results}}
           for i, item in enumerate(items)]
with open(ARGS.get("--out", os.path.join(HERE, "cookie-vectors.json")), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(len(vectors), "headers, each read by", ", ".join(results))
