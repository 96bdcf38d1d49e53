"""What the fixture generators that run real servers share: a free port, waiting for a server,
one request over a socket, and a program run on JSON items (make_*_vectors.py import it)."""
import json, socket, subprocess, sys, time

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    return port

def wait_for(port, tries=400):
    """Until something accepts connections on `port` (a server just started)."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)

def exchange(port, data):
    """Sends `data` on a new connection; the answer's head and body (read to the end of its
    Content-Length, its last chunk, or the connection's close: not every server closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
            head, found, body = answer.partition(b"\r\n\r\n")
            if not found:
                continue
            lower = head.lower()
            if b"content-length:" in lower:
                if len(body) >= int(lower.split(b"content-length:")[1].split(b"\r\n")[0]):
                    break
            elif b"transfer-encoding: chunked" in lower and body.endswith(b"0\r\n\r\n"):
                break
    head, _, body = answer.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return head, body

def run(cmd, items, env=None):
    """`cmd` given `items` as JSON on its standard input; what it prints, as JSON."""
    out = subprocess.run(cmd, input=json.dumps(items), capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit("%s failed: %s" % (cmd[0], out.stderr))
    return json.loads(out.stdout)
