"""Serves a WSGI app on wsgiref (Python 3.11's reference server) on the port in argv[1]: answers
with the request's header fields as a WSGI program sees them, the HTTP_* entries of its environ in
order (make_header_vectors.py)."""
import json, sys
from wsgiref.simple_server import make_server, WSGIRequestHandler

class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass

def app(environ, start_response):
    pairs = [[k, v] for k, v in environ.items() if k.startswith("HTTP_")]
    start_response("200 OK", [("Content-Type", "application/json")])
    return [json.dumps({"$map": pairs}, ensure_ascii=False).encode()]

make_server("127.0.0.1", int(sys.argv[1]), app, handler_class=Quiet).serve_forever()
