#!/usr/bin/env python3
"""Hurl's integration test server, as Hurl's own integration/hurl/server.py runs it: one Flask
application that every test's routes (the suite's tests_ok/*.py, which `from app import app`)
are added to, on 127.0.0.1. The routes are Hurl's (generated into the fixtures by
scripts/hurl-suite-fixtures, which names the commit); this file only stands in for Hurl's
app.py: the module `app` with the application, and its Server header.

Usage: hurl_flask_server.py ROUTES_DIR [PORT]   (prints "ready PORT" when it listens)
"""
import glob
import importlib.util
import logging
import os
import sys
import types

from flask import Flask
import werkzeug.http

# Hurl's routes set cookies with Domain=localhost, which Werkzeug 2.3 and later write as given
# and Debian 12's Werkzeug 2.2 refuses (a ValueError, an answer 500). Where that Werkzeug runs,
# its http module is given 2.3's reading: the domain, its port dropped, as bytes.
if not hasattr(werkzeug.http, "_cookie_no_quote_re"):  # (added in 2.3)
    def _make_cookie_domain(domain):
        if domain is None:
            return None
        domain = domain.encode("idna") if isinstance(domain, str) else domain
        return domain.split(b":", 1)[0]

    werkzeug.http._make_cookie_domain = _make_cookie_domain

routes_dir = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000

app = Flask("hurl_suite")


@app.after_request
def remove_header(response):
    # As Hurl's app.py: every response names the same server.
    response.headers["Server"] = "Flask Server"
    return response


module = types.ModuleType("app")
module.app = app
sys.modules["app"] = module
sys.path.insert(0, routes_dir)
for path in sorted(glob.glob(os.path.join(routes_dir, "*.py"))):
    name = "hurl_routes_" + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    routes = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(routes)
    except Exception as error:  # a route file that needs what is not here: its routes are missing
        print("cannot load %s: %s" % (path, error), file=sys.stderr)

logging.getLogger("werkzeug").setLevel(logging.ERROR)
print("ready %d" % port, flush=True)
app.run(host="127.0.0.1", port=port, threaded=True)
