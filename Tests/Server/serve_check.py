#!/usr/bin/env python3
"""Drives a running `pekit serve` for ServeCommandTests, speaking HTTP over raw sockets (so the
bytes sent are exactly the ones written here), and prints what it found as JSON.

  serve_check.py vectors PORT FIXTURE   each query of the real servers' vectors
                                        (Tests/PekitCoreTests/Fixtures/servers/server-vectors.json:
                                        what PHP, Rack, qs, Python, Go, node and the WHATWG parser
                                        read) sent to pekit serve; what it shows under each model
                                        compared with what that server read
  serve_check.py cookies PORT FIXTURE   each Cookie header of the real servers' vectors
                                        (Tests/PekitCoreTests/Fixtures/cookie-servers/cookie-vectors.json:
                                        what PHP, Rack, Python, Go and Express's `cookie` read)
                                        sent to pekit serve; its readings compared with theirs
  serve_check.py headers PORT FIXTURE   each request of the real servers' header vectors
                                        (Tests/PekitCoreTests/Fixtures/header-servers/header-vectors.json:
                                        what PHP, Rack on WEBrick, wsgiref, Go and node hand their
                                        programs) sent to pekit serve; its readings compared with theirs
  serve_check.py replay PORT FIXTURE N  the requests of sequence N of mitmproxy's replay vectors
                                        (Tests/PekitCLITests/Fixtures/mitmproxy-replay) sent to
                                        pekit serve --mock: the entry each was answered from
  serve_check.py garbage PORT           random bytes from strangers, then a request still answered
  serve_check.py events PORT            the event stream of requests as they come
  serve_check.py framing PORT           exact bytes kept (non-UTF-8, chunked, pipelined),
                                        100 Continue, a body over --max-body (16 bytes) refused
"""
import json, socket, sys

def exchange(port, data, expect_answers=1, first=None):
    """Sends `data` and reads until `expect_answers` whole answers came; returns them."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    answers, buffer = [], b""
    while len(answers) < expect_answers:
        chunk = s.recv(65536)
        if not chunk:
            break
        buffer += chunk
        while b"\r\n\r\n" in buffer:
            head, rest = buffer.split(b"\r\n\r\n", 1)
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if len(rest) < length:
                break
            answers.append((head.split(b"\r\n")[0].decode(), rest[:length]))
            buffer = rest[length:]
    s.close()
    return answers

def get_json(port, path):
    answers = exchange(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return json.loads(answers[0][1])

def canonical(value, sort_keys=False):
    if isinstance(value, dict):
        items = sorted(value.items()) if sort_keys else list(value.items())
        return {"$map": [[k, canonical(v, sort_keys)] for k, v in items]}
    if isinstance(value, list):
        return [canonical(v, sort_keys) for v in value]
    return value

def vectors(port, fixture):
    with open(fixture) as f:
        cases = json.load(f)
    by_query = {}
    for case in cases:
        query, expected = case["query"], case["expected"]
        text = json.dumps(expected)
        # A query a request line can carry as it is, read with the server's defaults, and an
        # answer that is a reading (not an error, not bytes that are not UTF-8).
        if case["options"] or not query.isascii() or any(c in query for c in " #\t\r\n") or not query.isprintable():
            continue
        if "$error" in text or "$bytes" in text or (case["model"] == "go" and expected.get("error") is not None):
            continue
        by_query.setdefault(query, []).append(case)
    compared, failures, per_model = 0, [], {}
    for n, (query, group) in enumerate(sorted(by_query.items())[:400]):
        answer = exchange(port, f"GET /v{n}?{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        number = json.loads(answer[0][1])["number"]
        shown = get_json(port, f"/_pekit/requests/{number}")["servers"]
        for case in group:
            model = case["model"]
            expected = case["expected"]
            if model == "go":
                got, want = canonical(shown[model]["query"], sort_keys=True), expected["values"]
            else:
                got, want = canonical(shown[model]["query"]), expected
            compared += 1
            per_model[model] = per_model.get(model, 0) + 1
            if got != want:
                failures.append(f"{model} {query!r}: pekit serve shows {json.dumps(got)}, the server read {json.dumps(want)}")
    print(json.dumps({"compared": compared, "queries": min(len(by_query), 400), "per_model": per_model, "failures": failures[:20]}))

def cookies(port, fixture):
    with open(fixture) as f:
        cases = json.load(f)
    # pekit serve's model names, and the cookie parser each one's server runs.
    readers = {"qs": "express", "php": "php", "rack": "rack", "python": "python", "go": "go"}
    compared, sent, failures, per_model = 0, 0, [], {}
    # The chosen headers and the first of the random ones (the models are held to all of them
    # in CookieServerPeerTests; this holds the server's framing and JSON to them).
    for case in cases[:500]:
        header = bytes.fromhex(case["header_hex"])
        # A field's surrounding spaces are no part of its value to any server (RFC 9110 5.5),
        # and a header line cannot carry CR or LF.
        if header != header.strip(b" \t") or b"\r" in header or b"\n" in header or len(header) > 8000:
            continue
        answer = exchange(port, b"GET /c HTTP/1.1\r\nHost: x\r\nCookie: " + header + b"\r\n\r\n")
        number = json.loads(answer[0][1])["number"]
        shown = get_json(port, f"/_pekit/requests/{number}")["servers"]
        sent += 1
        for model, reader in readers.items():
            expected = case["expected"][reader]
            text = json.dumps(expected)
            if "$error" in text or "$bytes" in text:
                continue
            got = canonical(shown[model]["cookies"])
            compared += 1
            per_model[model] = per_model.get(model, 0) + 1
            if got != expected:
                failures.append(f"{model} ({reader}) {header!r}: pekit serve shows {json.dumps(got)}, the server read {text}")
    print(json.dumps({"compared": compared, "headers": sent, "per_model": per_model, "failures": failures[:20]}))

def headers(port, fixture):
    with open(fixture) as f:
        cases = json.load(f)
    readers = {"qs": "node", "php": "php", "rack": "rack", "python": "python", "go": "go"}
    compared, failures = 0, []
    for case in cases:
        fields = b"".join(n.encode("latin-1") + b": " + v.encode("latin-1") + b"\r\n" for n, v in case["fields"])
        answer = exchange(port, b"GET /h HTTP/1.1\r\nHost: x\r\n" + fields + b"Connection: close\r\n\r\n")
        number = json.loads(answer[0][1])["number"]
        shown = get_json(port, f"/_pekit/requests/{number}")["servers"]
        for model, reader in readers.items():
            expected, got = case["expected"][reader], shown[model]["headers"]
            # The API writes a byte that is not UTF-8 as \u00XX: such a reading is not compared.
            if "$bytes" in json.dumps(expected):
                continue
            if "$error" in expected:
                ok = isinstance(got, dict) and expected["$error"] in got.get("error", "")
            else:
                ok = canonical(got) == expected
            compared += 1
            if not ok:
                failures.append(f"{model} ({reader}) {case['fields']!r}: pekit serve shows {json.dumps(got)}, the server gave {json.dumps(expected)}")
    print(json.dumps({"compared": compared, "requests": len(cases), "failures": failures[:20]}))

def replay(port, fixture, index):
    with open(fixture) as f:
        case = json.load(f)[index]
    answers = []
    for spec in case["requests"]:
        body = spec[2].encode() if len(spec) > 2 else b""
        head = f"{spec[0]} {spec[1]} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n".encode()
        if body:
            head += b"Content-Type: application/x-www-form-urlencoded\r\n"
        answer = exchange(port, head + b"\r\n" + body)
        text = answer[0][1].decode() if answer else ""
        answers.append(int(text.split()[1]) if text.startswith("entry ") else None)
    print(json.dumps({"answers": answers, "expected": case["expected"]}))

def framing(port):
    found = {}
    # Bytes that are not UTF-8 in the target and a header, and a chunked body: kept as sent.
    sent = (b"POST /bin?x=%FF\xff HTTP/1.1\r\nHost: x\r\nX-Bin: \xfe\xff\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n\r\n4\r\na=1&\r\n3;ext=1\r\nb=2\r\n0\r\nTrailer: t\r\n\r\n")
    answer = exchange(port, sent)
    number = json.loads(answer[0][1])["number"]
    detail = get_json(port, f"/_pekit/requests/{number}")
    import base64
    found["raw_exact"] = base64.b64decode(detail.get("raw_base64", "")) == sent
    found["body_bytes"] = detail["body_bytes"]
    found["php_body"] = detail["servers"]["php"]["body"]
    # Two requests in one write: two answers, two records.
    answers = exchange(port, b"GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two?z=9 HTTP/1.1\r\nHost: x\r\n\r\n", expect_answers=2)
    found["pipelined"] = [a[0] for a in answers]
    listing = get_json(port, "/_pekit/requests")
    found["targets"] = [r["target"] for r in listing["requests"]]
    # Expect: 100-continue: the interim answer before the body is sent.
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"POST /wait HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
    found["continue"] = s.recv(100).decode()
    s.sendall(b"k=v")
    found["after_continue"] = s.recv(1000).split(b"\r\n")[0].decode()
    s.close()
    # Over --max-body 16: 413, and the connection closed.
    answers = exchange(port, b"POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n" + b"x" * 17)
    found["too_large"] = answers[0][0] if answers else None
    # Not a request line: 400.
    answers = exchange(port, b"HELLO\r\n\r\n")
    found["garbage"] = answers[0][0] if answers else None
    print(json.dumps(found))

def events(port):
    """The event stream: its head, then the event a request sent meanwhile makes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /_pekit/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(1000)
    head, data = data.split(b"\r\n\r\n", 1)
    exchange(port, b"GET /live?a=1 HTTP/1.1\r\nHost: x\r\n\r\n")
    while b"\n\n" not in data:
        data += s.recv(1000)
    s.close()
    print(json.dumps({"head": head.decode(), "event": data.split(b"\n\n")[0].decode()}))

def garbage(port):
    """A stranger's bytes: 300 messages made of request pieces at random (huge and negative
    lengths, bad chunk sizes, NULs, a 70,000-byte line, half-closed connections); then a plain
    request must still be answered."""
    import random
    rng = random.Random(7)
    pieces = [b"GET ", b"POST ", b"/x?a=1", b" HTTP/1.1\r\n", b"Host: x\r\n", b"Content-Length: ", b"99999999999999999999", b"-1",
              b"5, 6", b"Transfer-Encoding: chunked\r\n", b"\r\n", b"\n", b"ffffffffffffffffff\r\n", b"0\r\n\r\n", b"3\r\nabc\r\n",
              b"\x00\xff\xfe", b":", b" ", b"Expect: 100-continue\r\n", b"HTTP/2.0", b"a" * 70000]
    for _ in range(300):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.settimeout(0.02)
            s.sendall(data)
            if rng.random() < 0.5:
                s.shutdown(socket.SHUT_WR)
            try:
                s.recv(100000)
            except OSError:
                pass
            s.close()
        except OSError:
            pass
    answers = exchange(port, b"GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
    print(json.dumps({"after": answers[0][0] if answers else None}))

if __name__ == "__main__":
    if sys.argv[1] == "vectors":
        vectors(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "cookies":
        cookies(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "headers":
        headers(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "replay":
        replay(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "garbage":
        garbage(int(sys.argv[2]))
    elif sys.argv[1] == "events":
        events(int(sys.argv[2]))
    else:
        framing(int(sys.argv[2]))
