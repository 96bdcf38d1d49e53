#!/usr/bin/env python3
"""pekit's local test and demo server: HTTP (and HTTPS with --tls-dir) on 127.0.0.1 only.

Prints one JSON line when ready: {"http": PORT, "https": PORT or null, "cacert": PATH or null}.
Exits when its parent process goes away (or on SIGTERM), so no server outlives a test run.

Endpoints (any method unless noted):
  /echo                 JSON: method, target, version, headers, body, sni, tls, cookie, client_port
  /raw                  the exact bytes of the request (head and body)
  /cookies/set?k=v&…    one Set-Cookie per pair (Path=/), then the /echo JSON
  /cookies/raw?h=…&h=…  each h as a Set-Cookie field as it is (%XX is that byte, UTF-8 or not)
  /cookies/many/N       N Set-Cookie fields, c0=v … c(N-1)=v
  /cookies              JSON {"cookie": the Cookie header or null}
  /login   (POST form user=&password=)   303 to /me with a session cookie; 401 otherwise
  /logout               deletes the session cookie
  /me                   200 JSON {"user": …} with a valid session cookie, else 401
  /redirect/CODE?to=URL[&cookie=k=v]      CODE with Location (default /echo), optional Set-Cookie
  /chain/N[?delay=S]    302 to /chain/N-1 … /chain/0 is /echo (each hop S seconds late)
  /delay/SECONDS        waits, then /echo
  /bytes/N[?chunked=1][&pause=S]  N bytes, byte i = i % 251 (S seconds between blocks of 16,064)
  /events?n=N[&pause=S&retry=MS&type=T&close_after=C]  a server-sent event stream
                        (text/event-stream, or T): events up to N, "id: k" and "data: event k" (k
                        from the request's Last-Event-ID + 1, else 1), S seconds apart (0.2),
                        chunked, "retry: MS" first; the connection ends after C events (all)
  /upload               reads the body in pieces: JSON {length, sha256}
  /status/CODE          that status with a one-line body
  /flaky/KEY/N[?status=S&after=A]  the first N requests for KEY answer S (503) with Retry-After A
                        when given (seconds or an HTTP-date), then 200 with the /echo JSON and
                        "attempt": how many requests KEY has had
  /inflight/KEY[?delay=S]  holds the request S seconds (0.1) while counting the requests for KEY
                        in progress: JSON {"inflight": at arrival (this one included), "max": the
                        most so far, "connections": TCP connections open to the server}
  /inflight/KEY/stats   JSON {"max": the most KEY requests at once, "count": how many came}
  /api/items?page=N[&per_page=P&run=R]  a paginated API of 250 items: JSON {"page", "pages",
                        "items": [{"id", "name"}], "next": URL or null}; the first request for
                        every third page (3, 6, …) in each run R answers 503 with Retry-After: 0
  /gzip                 "compressible " x 200, gzip-encoded if Accept-Encoding allows
  /bigheader/N          a header field X-Big of N bytes
  /manyheaders/N        N header fields of 1,000 bytes each
  /nulheader            a header field with a NUL byte in its value
  /canned-count/KEY     JSON {"count": how many /canned requests said c=KEY}
  /canned?b=B[&r=R&n=N][&t=T][&later=L&delay=S][&close=0][&c=KEY] exactly the bytes B (base64url) as the
                        response, then R N times, then T, then (S seconds later) L, then the
                        connection closed (kept with close=0): odd, broken and huge responses,
                        and bytes on an idle connection, for comparing readers
  /aws/…                verifies an AWS Signature V4 (header or presigned query) for access key
                        AKIDEXAMPLE, recomputed from the request as received (hashlib and hmac,
                        following AWS's specification, not pekit's code): 200 JSON {"ok": true,
                        "service": …}, or 403 with the canonical request the server computed
  /digest/ALGORITHM[?qop=auth&opaque=O&userhash=1]  HTTP Digest (RFC 7616) for user "ada",
                        password "pa:ss w0rd": a 401 with a Digest challenge (realm "pekit",
                        nonce "n0nce") unless the Authorization field answers it, recomputed with
                        hashlib per RFC 7616 §3.4 (MD5, MD5-sess, SHA-256, SHA-256-sess): then
                        200 JSON {"ok": true, "fields": the Authorization's parameters}
  /oauth1/…             verifies an OAuth 1.0a HMAC-SHA1/HMAC-SHA256 Authorization header for consumer
                        "pekit-consumer" (secret "consumer secret") and token "pekit-token" (secret
                        "token secret"), recomputed per RFC 5849 with hashlib and hmac: 200 or 403
"""
import argparse, base64, gzip, hashlib, shutil, signal, socket, http.server, json, os, secrets, socketserver, ssl, subprocess, sys, threading, time
from urllib.parse import parse_qsl, urlsplit

SESSIONS = {}
AWS_SECRETS = {"AKIDEXAMPLE": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}


def oauth1_verify(method, target, headers, body, scheme):
    """Checks an OAuth 1.0a HMAC signature per RFC 5849 section 3.4. Returns (ok, details)."""
    import base64, hmac, re
    from urllib.parse import quote, unquote, parse_qsl as qsl
    auth = headers.get("Authorization", "")
    if not auth.startswith("OAuth "):
        return False, {"error": "no OAuth Authorization header"}
    oauth = {unquote(k): unquote(v) for k, v in re.findall(r'([a-z_]+)="([^"]*)"', auth)}
    secrets_by_key = {"pekit-consumer": "consumer secret"}
    token_secrets = {"pekit-token": "token secret"}
    esc = lambda s: quote(s, safe="~")
    url = urlsplit(target)
    params = qsl(url.query, keep_blank_values=True)
    content_type = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if content_type == "application/x-www-form-urlencoded":
        params += qsl(body.decode(), keep_blank_values=True)
    params += [(k, v) for k, v in oauth.items() if k not in ("oauth_signature", "realm")]
    normalized = "&".join(f"{k}={v}" for k, v in sorted((esc(k), esc(v)) for k, v in params))
    base_uri = f"{scheme}://{headers['Host'].lower()}{url.path or '/'}"
    base = "&".join([esc(method.upper()), esc(base_uri), esc(normalized)])
    key = esc(secrets_by_key.get(oauth.get("oauth_consumer_key"), "")) + "&" + esc(token_secrets.get(oauth.get("oauth_token"), ""))
    digest = {"HMAC-SHA1": hashlib.sha1, "HMAC-SHA256": hashlib.sha256}.get(oauth.get("oauth_signature_method"))
    if digest is None:
        return False, {"error": "unsupported method " + str(oauth.get("oauth_signature_method"))}
    expected = base64.b64encode(hmac.new(key.encode(), base.encode(), digest).digest()).decode()
    ok = hmac.compare_digest(expected, oauth.get("oauth_signature", ""))
    if ok and "oauth_body_hash" in oauth:
        ok = oauth["oauth_body_hash"] == base64.b64encode(hashlib.sha1(body).digest()).decode()
    return ok, {"ok": ok, "base_string": base}


def digest_verify(method, target, authorization, algorithm, qop, userhash):
    """Whether `authorization` answers the /digest challenge (RFC 7616 §3.4, hashlib), and its
    parameters as read (RFC 7235 auth-params, quoted strings unescaped)."""
    if not authorization or not authorization.startswith("Digest "):
        return False, {}
    fields, rest = {}, authorization[7:]
    while rest:
        rest = rest.lstrip(" ,")
        name, _, rest = rest.partition("=")
        if rest.startswith('"'):
            value, i = "", 1
            while i < len(rest) and rest[i] != '"':
                if rest[i] == "\\":
                    i += 1
                value += rest[i]
                i += 1
            rest = rest[i + 1:]
        else:
            value, _, rest = rest.partition(",")
        fields[name.strip()] = value
    session = algorithm.lower().endswith("-sess")
    h = {"md5": hashlib.md5, "sha-256": hashlib.sha256}[algorithm.lower().replace("-sess", "")]
    H = lambda text: h(text.encode()).hexdigest()
    user = H("ada:pekit") if userhash else "ada"
    if fields.get("username") != user or fields.get("realm") != "pekit" or fields.get("nonce") != "n0nce" or fields.get("uri") != target:
        return False, fields
    ha1 = H("ada:pekit:pa:ss w0rd")
    if session:
        ha1 = H("%s:n0nce:%s" % (ha1, fields.get("cnonce", "")))
    ha2 = H("%s:%s" % (method, target))
    if qop:
        want = H("%s:n0nce:%s:%s:%s:%s" % (ha1, fields.get("nc", ""), fields.get("cnonce", ""), qop, ha2))
    else:
        want = H("%s:n0nce:%s" % (ha1, ha2))
    return fields.get("response") == want, fields


def aws_verify(method, target, headers, body):
    """Checks a SigV4 signature as an AWS endpoint does. Returns (ok, details)."""
    import hmac
    from urllib.parse import quote, unquote
    url = urlsplit(target)
    pairs = [p.partition("=") for p in url.query.split("&")] if url.query else []
    query = {unquote(k): unquote(v) for k, _, v in pairs}
    if "X-Amz-Signature" in query:
        credential, signed, given = query["X-Amz-Credential"], query["X-Amz-SignedHeaders"], query["X-Amz-Signature"]
        stamp = query["X-Amz-Date"]
        kept = [(k, v) for k, _, v in pairs if unquote(k) != "X-Amz-Signature"]
    else:
        auth = headers.get("Authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return False, {"error": "no AWS4-HMAC-SHA256 Authorization header or X-Amz-Signature"}
        fields = dict(part.strip().split("=", 1) for part in auth[len("AWS4-HMAC-SHA256 "):].split(","))
        credential, signed, given = fields["Credential"], fields["SignedHeaders"], fields["Signature"]
        stamp = headers.get("X-Amz-Date", "")
        kept = [(k, v) for k, _, v in pairs]
    access, date, region, service, _ = credential.split("/")
    secret = AWS_SECRETS.get(access)
    if secret is None:
        return False, {"error": "unknown access key " + access}
    # The canonical form AWS computes: each query name and value decoded and encoded again with
    # the unreserved set, sorted; the path encoded again (but for S3); the signed headers trimmed.
    enc = lambda s: quote(unquote(s), safe="-_.~")
    canonical_query = "&".join(f"{k}={v}" for k, v in sorted((enc(k), enc(v)) for k, v in kept))
    path = url.path or "/"
    if service != "s3":
        path = quote(path, safe="/~")
    names = signed.split(";")
    lines = []
    for name in names:
        values = headers.get_all(name) or []
        lines.append(name + ":" + ",".join(" ".join(v.split()) for v in values))
    payload = headers.get("X-Amz-Content-SHA256") or ("UNSIGNED-PAYLOAD" if service == "s3" and "X-Amz-Signature" in query
                                                     else hashlib.sha256(body).hexdigest())
    canonical = "\n".join([method, path, canonical_query, "\n".join(lines) + "\n", signed, payload])
    scope = f"{date}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    ok = hmac.compare_digest(expected, given)
    return ok, {"ok": ok, "service": service, "canonical_request": canonical, "string_to_sign": to_sign}
USERS = {"ada": "secret", "linus": "penguin"}


class Recorder:
    """Wraps the request stream and keeps every byte read, for /raw."""
    def __init__(self, stream):
        self.stream, self.data = stream, bytearray()
    def readline(self, *args):
        line = self.stream.readline(*args); self.data += line; return line
    def read(self, *args):
        chunk = self.stream.read(*args); self.data += chunk; return chunk
    def __getattr__(self, name):
        return getattr(self.stream, name)


class Handler(http.server.BaseHTTPRequestHandler):
    flaky = {}  # /flaky/KEY/N: requests seen per KEY
    flaky_lock = threading.Lock()
    inflight = {}  # /inflight/KEY: [in progress, most at once, count]
    connections = 0
    protocol_version = "HTTP/1.1"
    server_version = "pekit-test-server"
    sys_version = ""

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        with Handler.flaky_lock:
            Handler.connections += 1
        # Head and body go out in separate writes: without this, Nagle's algorithm holds the body
        # until the client's delayed ACK, 40 ms a response.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile = Recorder(self.rfile)

    def finish(self):
        with Handler.flaky_lock:
            Handler.connections -= 1
        super().finish()

    def handle_one_request(self):
        # One handler serves every request of a kept-alive connection: reset per request.
        self.rfile.data = bytearray()
        self.body_cache = None
        super().handle_one_request()

    def version_string(self):
        return self.server_version

    def body(self):
        if self.body_cache is None:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                # RFC 9112 section 7.1: size lines, data, the last chunk and a trailer to an empty line.
                data = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        break
                    data += self.rfile.read(size)
                    self.rfile.readline()
                self.body_cache = data
            else:
                length = int(self.headers.get("Content-Length") or 0)
                self.body_cache = self.rfile.read(length) if length else b""
        return self.body_cache

    def reply(self, status, body=b"", headers=(), content_type="application/json"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body, ensure_ascii=False, sort_keys=True).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        # 1xx, 204 and 304 have no content (RFC 9110 §6.4.1): a client reads none, so bytes sent
        # anyway would be read as the start of the next response on a kept-alive connection
        # (curl: "Received HTTP/0.9").
        bodiless = status < 200 or status in (204, 304)
        if not bodiless:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and not bodiless:
            self.wfile.write(body)

    def echo(self):
        body = self.body()
        try:
            text = body.decode()
        except UnicodeDecodeError:
            text = None
        return {
            "method": self.command, "target": self.path, "version": self.request_version,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": text, "body_length": len(body),
            "tls": isinstance(self.connection, ssl.SSLSocket),
            "sni": getattr(self.connection, "pekit_sni", None),
            "cookie": self.headers.get("Cookie"),
            "client_port": self.client_address[1],
        }

    def route(self):
        url = urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        query = parse_qsl(url.query, keep_blank_values=True)
        head = parts[0] if parts else ""
        if head == "sts":
            # /sts?h=VALUE…: each h a Strict-Transport-Security field of the answer (HSTS tests),
            # the body the request's echo.
            return self.reply(200, self.echo(), headers=[("Strict-Transport-Security", v) for k, v in query if k == "h"])
        if head == "oauth1":
            scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
            ok, details = oauth1_verify(self.command, self.path, self.headers, self.body(), scheme)
            return self.reply(200 if ok else 403, details)
        if head == "digest" and len(parts) == 2:
            options = dict(query)
            qop, userhash = options.get("qop"), options.get("userhash") == "1"
            ok, fields = digest_verify(self.command, self.path, self.headers.get("Authorization"), parts[1], qop, userhash)
            if ok:
                return self.reply(200, json.dumps({"ok": True, "fields": fields}).encode())
            challenge = 'Digest realm="pekit", nonce="n0nce", algorithm=%s' % parts[1]
            if qop:
                challenge += ', qop="%s"' % qop
            if "opaque" in options:
                challenge += ', opaque="%s"' % options["opaque"].replace("\\", "\\\\").replace('"', '\\"')
            if userhash:
                challenge += ", userhash=true"
            return self.reply(401, json.dumps({"ok": False, "fields": fields}).encode(), [("WWW-Authenticate", challenge)])
        if head == "aws":
            ok, details = aws_verify(self.command, self.path, self.headers, self.body())
            return self.reply(200 if ok else 403, details)
        if head == "canned":
            options = dict(query)
            if "c" in options:
                # c=KEY: counted, so that a test can tell how many requests came for it.
                with Handler.flaky_lock:
                    Handler.flaky["canned " + options["c"]] = Handler.flaky.get("canned " + options["c"], 0) + 1
            try:
                self.wfile.write(base64.urlsafe_b64decode(options.get("b", "")))
                # r (repeated n times) and then t: long or endless responses from a short URL.
                piece = base64.urlsafe_b64decode(options.get("r", ""))
                for _ in range(int(options.get("n", "0"))):
                    self.wfile.write(piece)
                self.wfile.write(base64.urlsafe_b64decode(options.get("t", "")))
                self.wfile.flush()
                if "later" in options:
                    # Bytes on the idle connection, after the response: no request asked for them.
                    time.sleep(float(options.get("delay", "0.05")))
                    self.wfile.write(base64.urlsafe_b64decode(options["later"]))
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
                return
            if options.get("close", "1") == "1":
                self.close_connection = True
            return
        if head == "raw":
            self.body()
            return self.reply(200, bytes(self.rfile.data), content_type="application/octet-stream")
        if head == "canned-count" and len(parts) > 1:
            with Handler.flaky_lock:
                return self.reply(200, {"count": Handler.flaky.get("canned " + parts[1], 0)})
        if head == "flaky" and len(parts) > 2:
            # The body read first, so that a kept-alive connection carries the next request whole.
            self.body()
            with Handler.flaky_lock:
                Handler.flaky[parts[1]] = Handler.flaky.get(parts[1], 0) + 1
                attempt = Handler.flaky[parts[1]]
            options = dict(query)
            if attempt <= int(parts[2]):
                extra = [("Retry-After", options["after"])] if "after" in options else []
                return self.reply(int(options.get("status", "503")), f"attempt {attempt}\n".encode(), extra, "text/plain")
            echo = self.echo()
            echo["attempt"] = attempt
            return self.reply(200, echo)
        if head == "inflight" and len(parts) == 3 and parts[2] == "stats":
            with Handler.flaky_lock:
                _, most, count = Handler.inflight.get(parts[1], [0, 0, 0])
            return self.reply(200, {"max": most, "count": count})
        if head == "inflight" and len(parts) == 2:
            with Handler.flaky_lock:
                entry = Handler.inflight.setdefault(parts[1], [0, 0, 0])
                entry[0] += 1; entry[1] = max(entry[1], entry[0]); entry[2] += 1
                now, connections = entry[0], Handler.connections
            time.sleep(float(dict(query).get("delay", "0.1")))
            with Handler.flaky_lock:
                entry[0] -= 1
            return self.reply(200, {"inflight": now, "max": entry[1], "connections": connections})
        if head == "api" and len(parts) == 2 and parts[1] == "items":
            options = dict(query)
            page, per_page, run = int(options.get("page", "1")), int(options.get("per_page", "10")), options.get("run", "")
            pages = (250 + per_page - 1) // per_page
            if page % 3 == 0:
                with Handler.flaky_lock:
                    key = f"api:{run}:{page}:{per_page}"
                    Handler.flaky[key] = Handler.flaky.get(key, 0) + 1
                    first = Handler.flaky[key] == 1
                if first:
                    return self.reply(503, b"busy, try again\n", [("Retry-After", "0")], "text/plain")
            items = [{"id": i, "name": f"item {i}"} for i in range((page - 1) * per_page + 1, min(250, page * per_page) + 1)]
            following = f"/api/items?page={page + 1}&per_page={per_page}&run={run}" if page < pages else None
            return self.reply(200, {"page": page, "pages": pages, "items": items, "next": following})
        if head == "cookies" and len(parts) > 1 and parts[1] == "set":
            return self.reply(200, self.echo(), [("Set-Cookie", f"{k}={v}; Path=/") for k, v in query])
        if head == "cookies" and len(parts) > 2 and parts[1] == "many":
            return self.reply(200, self.echo(), [("Set-Cookie", f"c{i}=v; Path=/") for i in range(int(parts[2]))])
        if head == "cookies" and len(parts) > 1 and parts[1] == "raw":
            # Decoded as latin-1, each %XX one character that send_header writes back as that byte.
            raw = parse_qsl(url.query, keep_blank_values=True, encoding="latin-1")
            return self.reply(200, self.echo(), [("Set-Cookie", v) for k, v in raw if k == "h"])
        if head == "cookies":
            return self.reply(200, {"cookie": self.headers.get("Cookie")})
        if head == "login":
            form = dict(parse_qsl(self.body().decode("utf-8", "replace")))
            user = form.get("user", "")
            if self.command != "POST" or USERS.get(user) != form.get("password"):
                return self.reply(401, {"error": "wrong user or password"})
            token = secrets.token_hex(8)
            SESSIONS[token] = user
            return self.reply(303, {"ok": True}, [("Location", "/me"),
                                                 ("Set-Cookie", f"session={token}; Path=/; HttpOnly; SameSite=Lax")])
        if head == "logout":
            return self.reply(200, {"ok": True}, [("Set-Cookie", "session=; Path=/; Max-Age=0")])
        if head == "me":
            cookies = dict(p.strip().split("=", 1) for p in (self.headers.get("Cookie") or "").split(";") if "=" in p)
            user = SESSIONS.get(cookies.get("session", ""))
            return self.reply(200, {"user": user}) if user else self.reply(401, {"error": "not logged in"})
        if head == "redirect" and len(parts) > 1:
            q = dict(query)
            # Sent as UTF-8 bytes, as real servers do (send_header writes Latin-1).
            headers = [("Location", q.get("to", "/echo").encode().decode("latin-1"))]
            if "cookie" in q:
                headers.append(("Set-Cookie", q["cookie"] + "; Path=/"))
            self.body()
            return self.reply(int(parts[1]), b"redirecting\n", headers, "text/plain")
        if head == "chain" and len(parts) > 1:
            n = int(parts[1])
            delay = dict(query).get("delay")
            if delay:
                time.sleep(float(delay))
            suffix = f"?delay={delay}" if delay else ""
            return self.reply(302, b"", [("Location", f"/chain/{n - 1}{suffix}" if n > 1 else "/echo")], "text/plain")
        if head == "delay" and len(parts) > 1:
            time.sleep(float(parts[1]))
            return self.reply(200, self.echo())
        if head == "bytes" and len(parts) > 1:
            n = int(parts[1])
            pattern = bytes(i % 251 for i in range(251 * 64))
            if dict(query).get("chunked"):
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                sent = 0
                while sent < n:
                    size = min(n - sent, 251 * 64)
                    self.wfile.write(b"%x\r\n" % size + pattern[:size] + b"\r\n")
                    self.wfile.flush()
                    sent += size
                    if dict(query).get("pause"):
                        time.sleep(float(dict(query)["pause"]))
                self.wfile.write(b"0\r\n\r\n")
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(n))
            self.end_headers()
            sent = 0
            pause = float(dict(query).get("pause") or 0)
            while sent < n and self.command != "HEAD":
                size = min(n - sent, len(pattern))
                self.wfile.write(pattern[:size])
                sent += size
                if pause:
                    self.wfile.flush()
                    time.sleep(pause)
            return
        if head == "events":
            q = dict(query)
            total, pause = int(q.get("n", "3")), float(q.get("pause", "0.2"))
            first = int(self.headers.get("Last-Event-ID") or 0) + 1
            self.send_response(200)
            self.send_header("Content-Type", q.get("type", "text/event-stream"))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()

            def chunk(data):
                self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                self.wfile.flush()
            if q.get("retry"):
                chunk(b"retry: %s\n\n" % q["retry"].encode())
            last = min(total, first + int(q.get("close_after", total)) - 1)
            for k in range(first, last + 1):
                chunk(b"id: %d\ndata: event %d\n\n" % (k, k))
                if k < last:
                    time.sleep(pause)
            self.wfile.write(b"0\r\n\r\n")
            return
        if head == "upload":
            length = int(self.headers.get("Content-Length") or 0)
            digest, got = hashlib.sha256(), 0
            while got < length:
                chunk = self.rfile.stream.read(min(1 << 16, length - got))
                if not chunk:
                    break
                digest.update(chunk); got += len(chunk)
            return self.reply(200, {"length": got, "sha256": digest.hexdigest()})
        if head == "gzip":
            # gzip-encoded when the client asks for it (Accept-Encoding), plain otherwise.
            text = ("compressible " * 200).encode()
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                return self.reply(200, gzip.compress(text, mtime=0), [("Content-Encoding", "gzip")], "text/plain")
            return self.reply(200, text, content_type="text/plain")
        if head == "manyheaders" and len(parts) > 1:
            # Written raw: no Server or Date field, whose lengths would move the byte counts.
            lines = b"".join(b"X-H%d: %s\r\n" % (i, b"a" * 1000) for i in range(int(parts[1])))
            self.wfile.write(b"HTTP/1.1 200 OK\r\n" + lines + b"Content-Length: 2\r\n\r\nok")
            self.close_connection = True
            return
        if head == "nulheader":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok")
            self.close_connection = True
            return
        if head == "bigheader" and len(parts) > 1:
            return self.reply(200, b"ok", [("X-Big", "a" * int(parts[1]))], "text/plain")
        if head == "status" and len(parts) > 1:
            code = int(parts[1])
            return self.reply(code, f"status {code}\n".encode(), content_type="text/plain")
        return self.reply(200, self.echo())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = route


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default backlog is 5: a client opening 50 connections at once would see
    # SYNs dropped and resent a second later.
    request_queue_size = 1024


def make_certificates(directory):
    """A test CA and a server certificate for api.example.test and www.example.test (no IP)."""
    ca, key, cert = (os.path.join(directory, n) for n in ("ca.pem", "server.key", "server.pem"))
    if all(os.path.exists(p) for p in (ca, key, cert)):
        return ca, key, cert
    os.makedirs(directory, exist_ok=True)
    run = lambda *a: subprocess.run(a, check=True, capture_output=True, cwd=directory)
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("openssl", "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3",
        "-subj", "/CN=pekit test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("openssl", "req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=api.example.test")
    with open(os.path.join(directory, "ext.cnf"), "w") as f:
        f.write("subjectAltName=DNS:api.example.test,DNS:www.example.test\n"
                "extendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "3", "-extfile", "ext.cnf")
    return ca, key, cert


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tls-dir", help="serve HTTPS too, with certificates made (once) in this directory")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cleanup", action="store_true", help="remove --tls-dir on exit")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # runs the cleanup below
    http_server = Server(("127.0.0.1", args.port), Handler)
    serve(http_server)
    https_port = cacert = None
    if args.tls_dir:
        cacert, key, cert = make_certificates(args.tls_dir)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.sni_callback = lambda sock, name, ctx: setattr(sock, "pekit_sni", name)
        https_server = Server(("127.0.0.1", 0), Handler)
        https_server.socket = context.wrap_socket(https_server.socket, server_side=True)
        https_port = https_server.server_address[1]
        serve(https_server)
    print(json.dumps({"http": http_server.server_address[1], "https": https_port, "cacert": cacert}), flush=True)
    parent = os.getppid()
    try:
        while os.getppid() == parent:
            time.sleep(0.2)
    finally:
        if args.cleanup and args.tls_dir:
            shutil.rmtree(args.tls_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
