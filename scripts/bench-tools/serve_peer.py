#!/usr/bin/env python3
"""The yardstick of `pekit serve`'s rate (section 16): Python's own http.server, threaded, that
reads each request as `pekit serve` must (its head, its query parsed with urllib.parse.parse_qs)
and answers a short JSON body on a kept-alive connection. Usage: serve_peer.py PORT"""
import json, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body are two writes: without this, Nagle's algorithm holds the second
    # until the first is acknowledged (40 ms on loopback), and the yardstick measures the wait.
    disable_nagle_algorithm = True

    def do_GET(self):
        query = urllib.parse.urlsplit(self.path).query
        body = json.dumps({"python": urllib.parse.parse_qs(query)}).encode() + b"\n"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # wrk closing its connections at the end of a run is no error of the yardstick's


Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
