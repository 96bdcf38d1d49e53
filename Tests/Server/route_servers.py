#!/usr/bin/env python3
"""The other ways a request reaches its server, for tests that hold pekit to curl 7.88 on them:

  - a relaying proxy on a loopback port that speaks SOCKS4, SOCKS4a, SOCKS5 (no
    authentication) and HTTP CONNECT, told apart by the first byte. It records each handshake
    byte for byte (what the client asked the proxy, up to the tunnel) and relays the rest to
    the target; a name (SOCKS4a, SOCKS5 with a name, CONNECT) is reached at 127.0.0.1;
  - an HTTP server on a Unix domain socket, and one on an abstract socket (Linux), each
    answering any request with the request's bytes as its body (as pekit_test_server.py's
    default route does).

Usage: route_servers.py DIR
  Prints {"proxy": PORT, "unix": PATH, "abstract": NAME, "log": FILE} and serves until its
  parent exits. Each handshake is a line of FILE: {"kind": "socks5", "bytes": BASE64}.
"""

import base64
import json
import os
import socket
import socketserver
import sys
import threading
import time

LOCK = threading.Lock()


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def read_until(sock, end):
    data = b""
    while not data.endswith(end):
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def relay(a, b):
    def pump(src, dst):
        try:
            while True:
                chunk = src.recv(65536)
                if not chunk:
                    break
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass
    t = threading.Thread(target=pump, args=(b, a), daemon=True)
    t.start()
    pump(a, b)
    t.join()


class Proxy(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        first = read_exactly(sock, 1)
        if first == b"\x04":
            head = first + read_exactly(sock, 7)
            port = int.from_bytes(head[2:4], "big")
            ip = socket.inet_ntoa(head[4:8])
            user = read_until(sock, b"\0")
            handshake = head + user
            kind = "socks4"
            if ip.startswith("0.0.0.") and ip != "0.0.0.0":
                handshake += read_until(sock, b"\0")
                kind = "socks4a"
            reply = b"\x00\x5a" + head[2:8]
        elif first == b"\x05":
            greeting = first + read_exactly(sock, 1)
            greeting += read_exactly(sock, greeting[1])
            sock.sendall(b"\x05\x00")
            request = read_exactly(sock, 4)
            if request[3] == 1:
                request += read_exactly(sock, 4)
            elif request[3] == 3:
                length = read_exactly(sock, 1)
                request += length + read_exactly(sock, length[0])
            else:
                request += read_exactly(sock, 16)
            request += read_exactly(sock, 2)
            port = int.from_bytes(request[-2:], "big")
            handshake = greeting + request
            kind = "socks5"
            reply = b"\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00"
        else:
            handshake = first + read_until(sock, b"\r\n\r\n")
            target = handshake.split(b" ")[1].decode()
            port = int(target.rsplit(":", 1)[1])
            kind = "connect"
            reply = b"HTTP/1.1 200 Connection established\r\n\r\n"
        with LOCK, open(self.server.log, "a") as f:
            f.write(json.dumps({"kind": kind, "bytes": base64.b64encode(handshake).decode()}) + "\n")
        upstream = socket.create_connection(("127.0.0.1", port))
        sock.sendall(reply)
        relay(sock, upstream)
        upstream.close()


class Echo(socketserver.BaseRequestHandler):
    """Answers each request (its head, and a body by Content-Length) with its bytes."""

    def handle(self):
        sock = self.request
        try:
            while True:
                head = read_until(sock, b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                request = head + read_exactly(sock, length)
                sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(request) + request)
        except (ConnectionError, OSError):
            pass


class ThreadingUnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


class ThreadingTCPServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    proxy = ThreadingTCPServer(("127.0.0.1", 0), Proxy)
    proxy.log = os.path.join(directory, "handshakes.jsonl")
    open(proxy.log, "w").close()
    path = os.path.join(directory, "echo.sock")
    unix = ThreadingUnixServer(path, Echo)
    abstract_name = "pekit-echo-%d" % os.getpid()
    abstract = ThreadingUnixServer("\0" + abstract_name, Echo)
    for server in (proxy, unix, abstract):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"proxy": proxy.server_address[1], "unix": path, "abstract": abstract_name, "log": proxy.log}), flush=True)
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.2)


if __name__ == "__main__":
    main()
