#!/usr/bin/env python3
"""PHP's arg_separator.input ini setting: each character of it ends a piece, as strtok reads them.

Runs php-cli (Debian php-cli, PHP 8.2) with -d arg_separator.input=… over run_php.php and writes
php-separator-vectors.json in server-vectors.json's shape (model, query, options, expected), read by
QueryServerPeerTests.testPHPArgSeparatorInput.  Usage: python3 make_php_separator_vectors.py
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = ["a=1;b=2&c=3", "a=1;;b=2", ";a=1;", "a[x]=1;a[y]=2", "a=%3B;b=%26", "a=1&b=2;c=3,d=4",
           "a;b&c", "", ";;;", "a=1,,b=2", "k=v&k=w;k=x", "x=a b;y=c+d"]
SEPARATORS = [";", ";&", ",;&", "&", ","]

cases = []
for sep in SEPARATORS:
    items = [{"model": "php", "query": q, "options": {"arg_separator.input": sep}} for q in QUERIES]
    out = subprocess.run(["php", "-d", "arg_separator.input=" + sep, os.path.join(HERE, "run_php.php")],
                         input=json.dumps(items), capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("php failed: " + out.stderr)
    cases += [dict(c, expected=r) for c, r in zip(items, json.loads(out.stdout))]

with open(os.path.join(HERE, "php-separator-vectors.json"), "w") as f:
    json.dump(cases, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print("%d vectors" % len(cases))
