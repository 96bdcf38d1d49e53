"""What a client sends, recorded on its way to Hurl's Flask routes, for hurl_suite.py's byte check:
a recording proxy on loopback (one a case) that keeps every request's bytes as they arrive and
relays it to the server, and the comparison of two clients' requests (pekit running the .hurl
file, curl running the .curl equivalents Hurl's suite ships, one line an entry).

What differs by design is taken out before comparing: the User-Agent (hurl/6.1.1 and
curl/7.88.1), the Expect field curl adds to a large body and Hurl removes, and a multipart
body's boundary (random in both).
"""

import re
import socket
import threading


def read_request(conn):
    """One request's bytes from `conn` (the head, then a Content-Length or chunked body), or None."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lower = head.lower()
    if b"\r\nexpect: 100-continue" in lower:
        conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    length = re.search(rb"\r\ncontent-length:\s*(\d+)", lower)
    if length:
        want = int(length.group(1))
        while len(rest) < want:
            chunk = conn.recv(65536)
            if not chunk:
                break
            rest += chunk
        return head + b"\r\n\r\n" + rest[:want]
    if b"\r\ntransfer-encoding: chunked" in lower:
        while not rest.endswith(b"0\r\n\r\n"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            rest += chunk
        return head + b"\r\n\r\n" + rest
    return head + b"\r\n\r\n"


class Recorder:
    """A proxy on 127.0.0.1 (its `port`) to the server on `upstream`: `requests` the bytes of each
    request it relayed, in the order they arrived. With no upstream it answers each request
    itself, 200 with `{}` (postman_bytes.py, export_roundtrip.py)."""

    def __init__(self, upstream=None):
        self.upstream = upstream
        self.requests = []
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(conn,), daemon=True).start()

    def relay(self, conn):
        with conn:
            while True:
                request = read_request(conn)
                if request is None:
                    return
                with self.lock:
                    self.requests.append(request)
                if self.upstream is None:
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
                    return
                # The server (Werkzeug) answers and closes: one exchange a connection upstream,
                # relayed whole; the client's connection closes with it.
                try:
                    with socket.create_connection(("127.0.0.1", self.upstream), timeout=30) as up:
                        up.sendall(request)
                        while True:
                            chunk = up.recv(65536)
                            if not chunk:
                                break
                            conn.sendall(chunk)
                except OSError:
                    pass
                return

    def take(self):
        """The requests so far, which then start again from none."""
        with self.lock:
            taken, self.requests = self.requests, []
        return taken

    def close(self):
        self.listener.close()


def normalized(request):
    """A request's bytes with what differs by design taken out, its header fields in name order
    (a .curl line writes with curl's flags what Hurl writes as fields, which libcurl places
    elsewhere: --user before Accept, --data's Content-Type after Content-Length)."""
    head, _, body = request.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    fields = sorted(line for line in lines[1:] if not re.match(rb"(?i)(user-agent|expect):", line))
    out = b"\r\n".join([lines[0]] + fields) + b"\r\n\r\n" + body
    boundary = re.search(rb"boundary=\"?([^\r\n;\"]+)", head)
    if boundary:
        out = out.replace(boundary.group(1), b"BOUNDARY")
    return out


def first_difference(ours, theirs):
    """None when every request of curl's is one of pekit's, in order (a .curl file may lag its
    .hurl file by an entry added since: each curl request is matched to pekit's next one with the
    same request line), else what differs (for a person)."""
    a, b = [normalized(r) for r in ours], [normalized(r) for r in theirs]
    i = 0
    for n, y in enumerate(b):
        line = y.split(b"\r\n", 1)[0]
        while i < len(a) and a[i].split(b"\r\n", 1)[0] != line:
            i += 1
        if i == len(a):
            return "curl's request %d (%r) is not among pekit's" % (n + 1, line)
        if a[i] != y:
            return "curl's request %d: pekit sent %r, curl sent %r" % (n + 1, a[i][:600], y[:600])
        i += 1
    return None
