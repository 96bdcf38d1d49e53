#!/usr/bin/env python3
"""Replays curl's own HTTP test cases: a server that answers as curl's test server `sws` does,
and a runner that sends one case's command through a client (curl, or pekit's `import curl
--send`) and records every request the server received, the exit status and the output.

The fixtures come from scripts/curl-suite-fixtures (which records curl 7.88's side with this
same runner); `pekit` is held to them by Tests/PekitCLITests/CurlSuiteTests.swift.

The server follows tests/server/sws.c of the curl commit the fixtures name:
  - the reply is the part `data` (`dataN` when the last path segment's number is above 10000:
    testno * 10000 + N), sent as it stands in the case, 20 bytes a write;
  - without a number in the path, a `Testno:` header gives it; with neither, sws's 404 page;
  - `Authorization: Digest` adds 1000 to the part; `Authorization: Basic` adds 1 to a part
    already above 1000;
  - `swsclose` anywhere in the reply (or the servercmd `swsclose`, or an empty reply) closes
    the connection after it; otherwise the connection stays open for the next request;
  - `swsbounce` in a reply makes the next request of the same case get the next part;
  - servercmd `auth_required` answers a request without Authorization before its body,
    `no-expect` ignores the body of an `Expect: 100-continue` request, `writedelay: MS` pauses
    after every write; postcmd `wait N` waits N seconds after the reply;
  - no `100 Continue` is ever sent (curl then sends the body after its own wait), as sws.

Usage: curl_replay.py run --fixtures DIR --client curl|pekit [--pekit PATH] [--jobs N]
                          [--only N,N…] [--json OUT]
       curl_replay.py compare --fixtures DIR [--pekit PATH] [--jobs N] [--only N,N…]
                          [--json OUT]   (same, differs or refused, a case a line)
       curl_replay.py expect --fixtures DIR [--pekit PATH] …   (cases curl 7.88 cannot run,
                          held to what curl's own tests expect: Fixtures/curl8-variables)
"""

import argparse
import base64
import concurrent.futures
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HOST = "127.0.0.1"
DOC404 = (b"HTTP/1.1 404 Not Found\r\nServer: sws/7.55.0-DEV\r\nConnection: close\r\n"
          b"Content-Type: text/html\r\nContent-Length: 142\r\n\r\n"
          b"<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<HTML><HEAD>\n"
          b"<TITLE>404 Not Found</TITLE>\n</HEAD><BODY>\n<H1>Not Found</H1>\n"
          b"The requested URL was not found on this server.\n</BODY></HTML>\n")
KEEPALIVE_SECONDS = 5
CLIENT_SECONDS = 20
# Every log folder has this length, so the bytes that name it (a multipart filename, a body
# read from a file's path) have the same length in the recording and in the replay.
LOGDIR_PREFIX = "pcs-"


BLOB_INLINE = 16384


def encode_blob(data):
    """Bytes for a fixture: base64, or {"zlib": base64} past 16 KB (curl's %repeat[] bodies)."""
    if len(data) <= BLOB_INLINE:
        return base64.b64encode(data).decode()
    return {"zlib": base64.b64encode(zlib.compress(data, 9)).decode()}


def decode_blob(value):
    if isinstance(value, dict):
        return zlib.decompress(base64.b64decode(value["zlib"]))
    return base64.b64decode(value)


class Case:
    """One fixture: the command, its files and the server's replies."""

    def __init__(self, fixture):
        self.fixture = fixture
        self.number = fixture["test"]
        self.replies = {k: decode_blob(v) for k, v in fixture["replies"].items()}
        self.servercmd = fixture.get("servercmd", [])
        self.postcmd = fixture.get("postcmd", [])


class ReplayServer:
    """sws's answers for one case, on a loopback port of its own."""

    def __init__(self, case, substitute):
        self.case = case
        self.substitute = substitute
        self.requests = []
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((HOST, 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.closing = False
        self.threads = []
        self.prev = None  # (testno, partno) of the last reply, for swsbounce
        self.bounce = False
        self.commands = set()
        self.writedelay = 0
        for line in case.servercmd:
            line = line.strip()
            if line.startswith("writedelay:"):
                self.writedelay = int(line.split(":", 1)[1])
            elif line:
                self.commands.add(line)

    def start(self):
        thread = threading.Thread(target=self.accept, daemon=True)
        thread.start()
        self.acceptor = thread

    def stop(self):
        self.closing = True
        try:
            self.listener.close()
        except OSError:
            pass
        for thread in list(self.threads):
            thread.join(timeout=2)

    def accept(self):
        while not self.closing:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self.serve, args=(conn,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def serve(self, conn):
        conn.settimeout(KEEPALIVE_SECONDS)
        pending = b""
        try:
            while not self.closing:
                request, pending, head = self.read_request(conn, pending)
                if request is None:
                    return
                with self.lock:
                    self.requests.append(request)
                if not self.reply(conn, head):
                    return
        except (OSError, socket.timeout):
            return
        finally:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def read_request(self, conn, pending):
        """One request as sws reads it: the head, then the body its framing gives."""
        data = pending
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                if data:
                    with self.lock:
                        self.requests.append(data)
                return None, b"", None
            data += chunk
        end = data.index(b"\r\n\r\n") + 4
        head = data[:end]
        lower = head.lower()
        authorized = b"authorization:" in lower
        if "auth_required" in self.commands and not authorized:
            return head, data[end:], head
        if "no-expect" in self.commands and b"\r\nexpect: 100-continue" in lower:
            return head, data[end:], head
        length = None
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                try:
                    length = int(line.split(b":", 1)[1].strip())
                except ValueError:
                    return head, b"", head
                break
        chunked = re.search(rb"\r\ntransfer-encoding: chunked", lower) is not None
        if chunked:
            while not self.chunks_complete(data[end:]):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            body_end = end + self.chunks_length(data[end:])
            return data[:body_end], data[body_end:], head
        if length:
            while len(data) - end < length:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            return data[:end + length], data[end + length:], head
        return head, data[end:], head

    @staticmethod
    def chunks_length(body):
        """The length of a complete chunked body (trailers included), or None."""
        at = 0
        while True:
            line_end = body.find(b"\r\n", at)
            if line_end < 0:
                return None
            size_text = body[at:line_end].split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                return None
            at = line_end + 2
            if size == 0:
                trailer_end = body.find(b"\r\n", at)
                while trailer_end >= 0 and trailer_end != at:
                    at = trailer_end + 2
                    trailer_end = body.find(b"\r\n", at)
                if trailer_end < 0:
                    return None
                return at + 2
            at += size + 2
            if at > len(body):
                return None

    def chunks_complete(self, body):
        return self.chunks_length(body) is not None

    def part_for(self, head):
        """sws's choice of reply part for a request head: (testno, part number)."""
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        fields = line.split(" ")
        testno, partno = None, 0
        if len(fields) >= 2:
            path = fields[1]
            slash = path.rfind("/")
            if slash >= 0:
                match = re.match(r"\d+", path[slash + 1:])
                if match:
                    number = int(match.group(0))
                    if number > 10000:
                        testno, partno = number // 10000, number % 10000
                    elif number:
                        testno = number
        if testno is None:
            match = re.search(rb"\nTestno: (\d+)", head)
            if match:
                testno = int(match.group(1))
        if testno is None:
            return None, 0
        if b"Authorization: Digest" in head:
            partno += 1000
        elif partno >= 1000 and b"Authorization: Basic" in head:
            partno += 1
        if self.bounce and self.prev and self.prev[0] == testno:
            partno = self.prev[1] + 1
        return testno, partno

    def reply(self, conn, head):
        """Sends the reply; True when the connection stays open."""
        testno, partno = self.part_for(head)
        if testno is None or testno != self.case.number:
            conn.sendall(DOC404)
            return False
        name = "data%d" % partno if partno else "data"
        body = self.case.replies.get(name)
        if body is None:
            return False
        body = self.substitute(body)
        persistent = True
        if b"swsclose" in body or not body or "swsclose" in self.commands:
            persistent = False
        self.bounce = b"swsbounce" in body
        self.prev = (testno, partno)
        for at in range(0, len(body), 20):
            conn.sendall(body[at:at + 20])
            if self.writedelay:
                time.sleep(self.writedelay / 1000)
        for line in self.case.postcmd:
            match = re.match(r"wait (\d+)", line.strip())
            if match:
                time.sleep(int(match.group(1)))
        if b"connection: close" in head.lower():
            persistent = False
        return persistent


def run_case(fixture, client, pekit):
    """Runs one case with the client; returns what the server and the user saw."""
    case = Case(fixture)
    logdir = tempfile.mkdtemp(prefix=LOGDIR_PREFIX, dir="/tmp")
    server = None
    try:
        holder = {}

        def substitute(data):
            return (data.replace(b"%HTTPPORT", str(holder["port"]).encode())
                        .replace(b"%HOSTIP", HOST.encode())
                        .replace(b"%LOGDIR", logdir.encode()))

        server = ReplayServer(case, substitute)
        holder["port"] = server.port
        for item in fixture.get("files", []):
            path = substitute(item["path"].encode()).decode()
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(substitute(decode_blob(item["data"])))
        # The command's text holds the test file's bytes one character each (latin-1): the
        # bytes the shell is given are those of the file.
        command = substitute(fixture["command"].encode("latin-1", "replace"))
        env = dict(os.environ)
        for name, value in fixture.get("env", {}).items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = substitute(value.encode()).decode()
        env["CURL_HOME"] = logdir
        env["HOME"] = logdir
        for proxy in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                      "ALL_PROXY", "no_proxy", "NO_PROXY"):
            if proxy not in fixture.get("env", {}):
                env.pop(proxy, None)
        server.start()
        if client == "curl":
            argv = [b"/bin/sh", b"-c", b"curl " + command]
        else:
            argv = [pekit.encode(), b"import", b"curl", b"--send", b"curl " + command]
        started = time.monotonic()
        try:
            done = subprocess.run(argv, cwd=logdir, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=CLIENT_SECONDS)
            status, stdout, stderr = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as error:
            status, stdout, stderr = "timeout", error.stdout or b"", error.stderr or b""
        seconds = time.monotonic() - started
        time.sleep(0.05)
        server.stop()
        with server.lock:
            requests = list(server.requests)

        # The port only where it is a number of its own: a body's digits that happen to hold it
        # (an ETag's 39462498 with port 46249) stay as they are.
        port = re.compile(rb"(?<![0-9])%d(?![0-9])" % server.port)

        def normalize(data):
            return port.sub(b"%HTTPPORT", data.replace(logdir.encode(), b"%LOGDIR"))

        output_path = os.path.join(logdir, "curl%d.out" % case.number)
        output = None
        if os.path.exists(output_path):
            with open(output_path, "rb") as handle:
                output = handle.read()
        return {
            "test": case.number,
            "status": status,
            "seconds": round(seconds, 3),
            "requests": [encode_blob(normalize(r)) for r in requests],
            "stdout": encode_blob(normalize(stdout)),
            "stderr": normalize(stderr).decode("utf-8", "replace"),
            "output": None if output is None else encode_blob(normalize(output)),
        }
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(logdir, ignore_errors=True)


# pekit's words when it does not take a curl feature (the flag, the -w variable, the scheme):
# a case that stops on one of them, having sent nothing, is "refused", named by the feature.
REFUSALS = [
    (re.compile(r"curl's (\S+) is not something pekit takes"), "{0}"),
    (re.compile(r"the URL has curl's glob (?:list|range)"), "URL globbing"),
    (re.compile(r"the -T file name has curl's glob (?:list|range)"), "-T globbing"),
    (re.compile(r"-w: unknown variable %\{([^}]+)\}"), "-w %{{{0}}}"),
    (re.compile(r"-w: unknown %(\w+)\{"), "-w %{0}{{…}}"),
    (re.compile(r'Protocol "(\w+)" not supported'), "{0}:// URLs"),
    (re.compile(r"--cookie-jar takes one URL"), "-c with several URLs"),
    (re.compile(r"--(?:output|include) is for sending, and --raw only shows"), "curl's --raw"),
]


def refusal(stderr):
    for pattern, name in REFUSALS:
        match = pattern.search(stderr)
        if match:
            return name.format(*match.groups())
    return None


def boundaries_named(request):
    """A multipart request with each boundary written %BOUNDARY1, %BOUNDARY2… in the order they
    are declared (each client draws its own, a nested multipart/mixed part one more)."""
    for n, boundary in enumerate(dict.fromkeys(re.findall(rb"boundary=([^\s;]+)", request)), 1):
        request = request.replace(boundary, b"%%BOUNDARY%d" % n)
    return request


def verdict(fixture, result):
    """Compares pekit's run with curl's recording: (verdict, detail).

    verdict is "same" (every request byte for byte, in order, and the exit status, and what it
    wrote where curl writes the same every run), "refused" (pekit named a curl flag it does not
    take; detail is the flag), "output" (the same requests and status, but other output) or
    "differs"."""
    refused = refusal(result["stderr"])
    if refused and not result["requests"]:
        return "refused", refused
    expected = [boundaries_named(decode_blob(r)) for r in fixture["curl"]["requests"]]
    got = [boundaries_named(decode_blob(r)) for r in result["requests"]]
    for index, (want, have) in enumerate(zip(expected, got)):
        if want != have:
            return "differs", "request %d: curl sent %r, pekit %r" % (index + 1, want[:600],
                                                                     have[:600])
    if len(expected) != len(got):
        return "differs", "curl sent %d requests, pekit %d%s" % (
            len(expected), len(got),
            (" (the next: %r)" % got[len(expected)][:300]) if len(got) > len(expected)
            else " (pekit said: %s)" % result["stderr"].strip()[:400])
    if "unsteady" in fixture:
        # curl itself ends this case in more than one way (see scripts/curl-suite-fixtures).
        if str(result["status"]) not in fixture["unsteady"]:
            return "differs", "curl exits %s, pekit %s: %s" % (
                " or ".join(fixture["unsteady"]), result["status"], result["stderr"].strip()[:300])
    elif fixture["curl"]["status"] != result["status"]:
        return "differs", "curl exits %s, pekit %s: %s" % (
            fixture["curl"]["status"], result["status"], result["stderr"].strip()[:300])
    if fixture["curl"].get("output_steady"):
        # The same requests and status: then what the client wrote, where curl writes the same
        # every run (standard output, and the file of --output).
        for key, name in (("stdout", "standard output"), ("output", "the -o file")):
            want, have = fixture["curl"].get(key), result.get(key)
            want = None if want is None else decode_blob(want)
            have = None if have is None else decode_blob(have)
            if want != have:
                return "output", "%s: curl wrote %r, pekit %r" % (
                    name, None if want is None else want[:400], None if have is None else have[:400])
    return "same", ""


def compare_all(fixtures, pekit, jobs, newer):
    """Each case's verdict. `newer` holds the cases where curl 7.88 has a bug a newer curl
    fixed: pekit is held to the newer curl's exit status and request count there ("newer"), and
    to the requests the newer curl's test expects where the fixture holds them."""
    results = run_all(fixtures, "pekit", pekit, jobs)
    out = []
    for fixture, result in zip(fixtures, results):
        kind, detail = verdict(fixture, result)
        fix = newer.get(str(fixture["test"]))
        if fix is not None:
            if kind in ("same", "output"):
                kind, detail = "differs", "listed in newer-curl.json but pekit does as curl 7.88"
            elif result["status"] == fix["status"] and len(result["requests"]) == fix["requests"]:
                kind, detail = "newer", fix["why"]
                # The newer curl's own bytes, where its test at the fixtures' commit gives them.
                if "newer_protocol" in fixture:
                    want = boundaries_named(decode_blob(fixture["newer_protocol"])
                                            .replace(b"%HOSTIP", HOST.encode()))
                    have = boundaries_named(b"".join(decode_blob(r) for r in result["requests"]))
                    if want != have:
                        kind, detail = "differs", "curl's test (a newer curl) expects %r, pekit sent %r" % (
                            want[:600], have[:600])
        out.append({"test": fixture["test"], "verdict": kind, "detail": detail,
                    "seconds": result["seconds"]})
    return out


def expect_all(fixtures, pekit, jobs):
    """Cases curl 7.88 cannot run (Fixtures/curl8-variables): each held to what curl's own test
    expects, its exit status and, where the test has one, its <protocol> byte for byte."""
    results = run_all(fixtures, "pekit", pekit, jobs)
    out = []
    for fixture, result in zip(fixtures, results):
        kind, detail = "same", ""
        if result["status"] != fixture["expected_status"]:
            kind, detail = "differs", "curl's test expects exit %s, pekit %s (%s)" % (
                fixture["expected_status"], result["status"], result["stderr"].strip()[:300])
        elif "newer_protocol" in fixture:
            want = boundaries_named(decode_blob(fixture["newer_protocol"]).replace(b"%HOSTIP", HOST.encode()))
            have = boundaries_named(b"".join(decode_blob(r) for r in result["requests"]))
            if want != have:
                kind, detail = "differs", "curl's test expects %r, pekit sent %r" % (want[:600], have[:600])
        out.append({"test": fixture["test"], "verdict": kind, "detail": detail, "seconds": result["seconds"]})
    return out


def load_fixtures(folder, only):
    fixtures = []
    for name in sorted(os.listdir(folder)):
        if not re.match(r"test\d+\.json$", name):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            fixture = json.load(handle)
        if not name.startswith("test") or (only and fixture["test"] not in only):
            continue
        fixtures.append(fixture)
    return fixtures


def run_all(fixtures, client, pekit, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_case, f, client, pekit) for f in fixtures]
        return [f.result() for f in futures]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    helps = {"run": "run fixtures through a client, print the results as JSON",
             "compare": "run fixtures through pekit, compare with curl",
             "expect": "run fixtures through pekit, compare with what curl's tests expect"}
    for name, text in helps.items():
        command = sub.add_parser(name, help=text)
        command.add_argument("--fixtures", required=True)
        if name == "run":
            command.add_argument("--client", choices=["curl", "pekit"], required=True)
        command.add_argument("--pekit", default=os.environ.get("PEKIT_BIN", "pekit"))
        command.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
        command.add_argument("--only", default="")
        command.add_argument("--json", default="-")
    args = parser.parse_args()
    if os.sep in args.pekit:
        args.pekit = os.path.abspath(args.pekit)
    only = {int(n) for n in args.only.split(",") if n}
    fixtures = load_fixtures(args.fixtures, only)
    if args.command == "run":
        results = run_all(fixtures, args.client, args.pekit, args.jobs)
    elif args.command == "expect":
        results = expect_all(fixtures, args.pekit, args.jobs)
    else:
        newer_path = os.path.join(args.fixtures, "newer-curl.json")
        newer = {}
        if os.path.exists(newer_path):
            with open(newer_path, encoding="utf-8") as handle:
                newer = json.load(handle)
        results = compare_all(fixtures, args.pekit, args.jobs, newer)
    text = json.dumps(results, indent=1)
    if args.json == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
