#!/usr/bin/env python3
"""Generates multipart-vectors.json: what each real server reads from a multipart/form-data body.

Models and the peers that produced them (all from Debian 12 / this machine):
  php      PHP 8.2 $_POST and $_FILES, through its built-in server (php -S)  (run_php_multipart.php)
  rack     Rack 2.2 Multipart.parse_multipart (Rack::Request#POST)          (run_rack_multipart.rb)
  python   Python 3.11 cgi.FieldStorage                                    (here)
  go       Go 1.19 net/http: ReadRequest, then ParseMultipartForm          (run_go_multipart.go)

Canonical form: a map is {"$map": [[name, value], ...]} in the server's order (Go's names
sorted), a string that is not UTF-8 is {"$bytes": hex}, a raised error is {"$error": class,
"message": text}. PHP: {"$map": [["post", $_POST], ["files", $_FILES with each tmp_name replaced
by the file's content]]}; Rack: its params, a file as {"$file": {filename, type, name, head, content}};
Python: the list of parts, [name, value] or [name, {"$file": {filename, type, content}}]; Go:
{"values": Value, "files": File, each {filename, content_type, size, content}}.

Needs: apt-get install php-cli ruby-rack golang-go
Run:   python3 Tests/PekitCoreTests/Fixtures/multipart-servers/make_multipart_vectors.py
"""
import io, json, os, random, socket, subprocess, sys, time, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import cgi
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from peers import exchange, free_port, run, wait_for

def body(parts, boundary="XyZ", eol=b"\r\n", preamble=b"", epilogue=b"", close=True):
    """A multipart body: each part (its header lines, its content) after a delimiter line."""
    out = preamble
    for headers, content in parts:
        out += b"--" + boundary.encode() + eol
        for h in headers:
            out += h.encode("utf-8") if isinstance(h, str) else h
            out += eol
        out += eol + (content.encode("utf-8") if isinstance(content, str) else content) + eol
    if close:
        out += b"--" + boundary.encode() + b"--" + eol
    return out + epilogue

def field(name, value, extra=()):
    return (['Content-Disposition: form-data; name="%s"' % name] + list(extra), value)

def upload(name, filename, content, ctype="text/plain"):
    headers = ['Content-Disposition: form-data; name="%s"; filename="%s"' % (name, filename)]
    if ctype is not None:
        headers.append("Content-Type: " + ctype)
    return (headers, content)

CT = "multipart/form-data; boundary=XyZ"
CASES = [
    (CT, body([field("a", "1")])),
    (CT, body([field("a", "1"), field("b", "two words")])),
    (CT, body([field("a", "1"), field("a", "2")])),
    (CT, body([field("a[]", "1"), field("a[]", "2"), field("u[name]", "ada"), field("u[tags][]", "x")])),
    (CT, body([field("a.b", "1"), field("a b", "2"), field(" c", "3")])),
    (CT, body([field("a", "")])),
    (CT, body([field("a", "line1\r\nline2")])),
    (CT, body([field("a", "--XyZ is not a delimiter")])),
    (CT, body([field("a", "é ü 小")])),
    (CT, body([field("a", b"\xff\xfe")])),
    (CT, body([upload("f", "a.txt", "hello")])),
    (CT, body([upload("f", "a.txt", "hello", None)])),
    (CT, body([upload("f", "", "")])),
    (CT, body([upload("f", "a.txt", "")])),
    (CT, body([upload("f", "C:\\dir\\a.txt", "x")])),
    (CT, body([upload("f", "dir/sub/a.txt", "x")])),
    (CT, body([upload("f", "é.txt", "x")])),
    (CT, body([upload("f[]", "a.txt", "1"), upload("f[]", "b.txt", "2")])),
    (CT, body([upload("f[x]", "a.txt", "1"), field("f2", "v")])),
    (CT, body([upload("f", "a.txt", "1"), upload("f", "b.txt", "2")])),
    (CT, body([upload("f", "a.bin", b"\x00\x01\xff", "application/octet-stream")])),
    (CT, body([(['Content-Disposition: form-data; name="f"; filename="a\\"b.txt"'], "x")])),
    (CT, body([(['Content-Disposition: form-data; name="f"; filename*=UTF-8\'\'%E2%82%AC.txt'], "x")])),
    (CT, body([(['Content-Disposition: form-data; name="f"; filename="a.txt"; filename*=UTF-8\'\'b.txt'], "x")])),
    (CT, body([(['Content-Disposition: form-data; name=a'], "1")])),
    (CT, body([(['Content-Disposition: form-data; name="a"; name="b"'], "1")])),
    (CT, body([(['content-disposition: FORM-DATA; NAME="a"'], "1")])),
    (CT, body([(['Content-Disposition: form-data'], "1"), field("b", "2")])),
    (CT, body([(['Content-Type: text/plain'], "1"), field("b", "2")])),
    (CT, body([(['Content-Disposition: attachment; name="a"'], "1")])),
    (CT, body([field("a", "1", ["Content-Type: text/plain; charset=utf-8"])])),
    (CT, body([field("_charset_", "utf-8"), field("a", "1")])),
    (CT, body([field("a", "1")], eol=b"\n")),
    (CT, body([field("a", "1")], preamble=b"preamble\r\n", epilogue=b"epilogue")),
    (CT, body([field("a", "1")], close=False)),
    (CT, body([field("a", "1"), field("b", "2")], close=False)),
    (CT, b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"),
    (CT, b""),
    (CT, b"--XyZ--\r\n"),
    (CT, b"no delimiter at all"),
    ('multipart/form-data; boundary="XyZ"', body([field("a", "1")])),
    ("multipart/form-data; boundary=XyZ; charset=utf-8", body([field("a", "1")])),
    ("Multipart/Form-Data; Boundary=XyZ", body([field("a", "1")])),
    ("multipart/form-data; boundary=Other", body([field("a", "1")])),
    ("multipart/form-data", body([field("a", "1")])),
    ('multipart/form-data; boundary="a b:c"', body([field("a", "1")], boundary="a b:c")),
    # names and files PHP treats on their own
    (CT, body([(['Content-Disposition: form-data; filename="a.txt"'], "x"), field("b", "2")])),
    (CT, body([upload("f", "a.txt", "1"), field("f", "2"), field("f[tmp_name]", "3"), field("g", "4")])),
    (CT, body([field("MAX_FILE_SIZE", "3"), upload("f", "a.txt", "1234"), upload("g", "b.txt", "12")])),
    (CT, body([upload("f%d" % i, "a%d.txt" % i, "x") for i in range(22)])),
    (CT, body([upload("f]", "a.txt", "1"), upload("g[x]y", "b.txt", "2"), upload("h[x][y]", "c.txt", "3"), upload("i[", "d.txt", "4")])),
    (CT, body([(["Content-Disposition: form-data; name='a'"], "1"), (['Content-Disposition: form-data; name="b c" ; x=1'], "2")])),
    (CT, body([(['Content-Disposition: form-data;', ' name="a"'], "1"), (['Content-Disposition:form-data;name=b'], "2")])),
    (CT, body([(['Content-Disposition: form-data; name="a"; filename="x.txt"', 'Content-Type: text/plain; charset=utf-8'], "1")])),
    (CT, body([(['Content-Disposition: form-data; name="a\\b"; filename="c\\d.txt"'], "1")])),
    (CT, body([(['Content-Disposition: form-data; NAME="a"; FileName="b.txt"'], "1")])),
    (CT, body([(['X-Other: 1', 'Content-Disposition: form-data; name="a"'], "1")])),
    (CT, body([field("a", "x\r"), field("b", "\r\n")])),
    (CT, b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZx\r\n--XyZ--\r\n"),
    (CT, b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\n--XyZ\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--XyZ--"),
    (CT, b"--XyZ \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--\r\n"),
    ("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
     body([field("user[name]", "Ada Lovelace"), upload("avatar", "ada.png", b"\x89PNG\r\n\x1a\n", "image/png"), field("note", "é & ü")],
          boundary="----WebKitFormBoundary7MA4YWxkTrZu0gW")),
]

# Random bodies from the pieces servers disagree on (fixed seed: the file is reproducible).
# `--seed N --out FILE`: the random inputs from another seed, written to FILE instead (what
# LiveServerDifferentialTests runs on the real servers, a new seed each time).
ARGS = dict(zip(sys.argv[1::2], sys.argv[2::2]))
rng = random.Random(int(ARGS.get("--seed", 20261207)))
NAMES = ["a", "b", "a[]", "a[b]", "a.b", "a b", "u[x][]", "f", "f[]", "_charset_", "é", "a%5Bb%5D", ""]
VALUES = ["1", "", "x y", "é", "a\r\nb", "--XyZ", "--XyZx", "\t", "a=b&c=d", "%41", b"\xff"]
FILENAMES = ["a.txt", "", "C:\\d\\a.txt", "d/a.txt", "é.txt", "a;b.txt", "a b", ".", ".."]
for _ in range(150):
    parts = []
    for _ in range(rng.randint(1, 4)):
        name, value = rng.choice(NAMES), rng.choice(VALUES)
        if rng.random() < 0.35:
            parts.append(upload(name, rng.choice(FILENAMES), value, rng.choice(["text/plain", None, "image/png"])))
        else:
            parts.append(field(name, value))
    CASES.append((CT, body(parts, eol=rng.choice([b"\r\n"] * 5 + [b"\n"]), close=rng.random() < 0.9)))

# Random bodies line by line: delimiters right and wrong, header lines of every shape, data lines.
LINES = [b"--XyZ", b"--XyZ--", b"--XyZ ", b"--XyZx", b"XyZ", b"", b"",
         b'Content-Disposition: form-data; name="a"', b'Content-Disposition: form-data; name="b"; filename="b.txt"',
         b"Content-Disposition: form-data; name=c", b'content-disposition: form-data; name="a[]"', b"Content-Disposition: form-data",
         b'Content-Disposition: form-data; filename="x.txt"', b'Content-Disposition: form-data; name="u[x]"; filename=""',
         b"Content-Type: text/plain", b"Content-Type: image/png; x=1", b" continued", b"X-Other: 1", b"no colon here",
         b"value", b"x=1&y=2", b"\xff\xfe", b"caf\xc3\xa9", b"\t", b"a\rb"]
for _ in range(200):
    eol = rng.choice([b"\r\n"] * 6 + [b"\n"])
    lines = [b"--XyZ"] + [rng.choice(LINES) for _ in range(rng.randint(2, 12))]
    if rng.random() < 0.7:
        lines.append(b"--XyZ--")
    CASES.append((CT, eol.join(lines) + (eol if rng.random() < 0.8 else b"")))

def php_results(cases):
    """Each body POSTed to a running `php -S`; its answer is $_POST and $_FILES."""
    port = free_port()
    server = subprocess.Popen(["php", "-S", "127.0.0.1:%d" % port, os.path.join(HERE, "run_php_multipart.php")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port)
        results = []
        for ctype, data in cases:
            head, text = exchange(port, b"POST / HTTP/1.0\r\nHost: x\r\nContent-Type: " + ctype.encode() + b"\r\nContent-Length: %d\r\n\r\n" % len(data) + data)
            if b" 200 " not in head.split(b"\r\n")[0]:
                sys.exit("php -S answered %r" % head[:60])
            results.append(json.loads(text))
        return results
    finally:
        server.terminate(); server.wait()

def canon(v):
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            return {"$bytes": v.hex()}
    return v

def python_result(ctype, data):
    try:
        fs = cgi.FieldStorage(fp=io.BytesIO(data), environ={"REQUEST_METHOD": "POST", "CONTENT_TYPE": ctype,
                                                             "CONTENT_LENGTH": str(len(data))}, keep_blank_values=True)
        out = []
        for item in fs.list or []:
            if item.filename is not None:
                out.append([item.name, {"$file": {"$map": [["filename", item.filename], ["type", item.type], ["content", canon(item.file.read())]]}}])
            else:
                out.append([item.name, canon(item.value if isinstance(item.value, bytes) else item.value.encode("utf-8", "surrogateescape"))])
        return out
    except Exception as e:
        return {"$error": type(e).__name__, "message": str(e)}

items = [{"content_type": c, "body_hex": d.hex()} for c, d in CASES]
results = {
    "php": php_results(CASES),
    "rack": run(["ruby", os.path.join(HERE, "run_rack_multipart.rb")], items),
    "python": [python_result(c, d) for c, d in CASES],
    "go": run(["go", "run", os.path.join(HERE, "run_go_multipart.go")], items,
              env=dict(os.environ, GOCACHE="/tmp/pekit-go-cache", GOFLAGS="-mod=mod")),
}
vectors = [dict(item, expected={m: results[m][i] for m in results}) for i, item in enumerate(items)]
with open(ARGS.get("--out", os.path.join(HERE, "multipart-vectors.json")), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(len(vectors), "bodies, each read by", ", ".join(results))
