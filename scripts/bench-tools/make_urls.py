#!/usr/bin/env python3
"""Writes N varied URLs, one a line, for the URL parsing benchmark (a fixed seed: the same file
every run): http(s), ws and non-special schemes; names, IPv4 in several forms, IPv6; ports; user
info; paths with dot segments, percent-escapes, spaces and non-ASCII; queries; fragments; a few
internationalized names. Usage: make_urls.py OUT [N]"""
import random, sys
out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
rng = random.Random(20261130)
words = ["api", "www", "cdn", "static", "img", "v1", "v2", "users", "search", "items", "a", "b", "index.html", "docs", "en-US", "files"]
tlds = ["com", "org", "net", "io", "co.uk", "de", "example"]
def host():
    r = rng.random()
    if r < 0.70: return ".".join(rng.choice(words) for _ in range(rng.randint(1, 3))) + "." + rng.choice(tlds)
    if r < 0.80: return "%d.%d.%d.%d" % tuple(rng.randint(0, 255) for _ in range(4))
    if r < 0.83: return "0x%X" % rng.randint(0, 2**32 - 1)
    if r < 0.90: return "[2001:db8:%x::%x]" % (rng.randint(0, 0xffff), rng.randint(1, 0xffff))
    if r < 0.95: return rng.choice(words).upper() + "." + rng.choice(tlds).upper()
    return rng.choice(["例子", "bücher", "пример", "münchen"]) + "." + rng.choice(["com", "de", "中国"])
def path():
    segs = []
    for _ in range(rng.randint(0, 5)):
        r = rng.random()
        if r < 0.75: segs.append(rng.choice(words))
        elif r < 0.82: segs.append(rng.choice(["..", ".", "%2e"]))
        elif r < 0.90: segs.append("a%20b%2Fc")
        elif r < 0.95: segs.append("a b")
        else: segs.append("汉字")
    return "/" + "/".join(segs)
def query():
    if rng.random() < 0.4: return ""
    return "?" + "&".join("%s=%s" % (rng.choice(words), rng.choice(["1", "a+b", "x%20y", "", "日本", "a b", "true"])) for _ in range(rng.randint(1, 4)))
with open(out, "w") as f:
    for _ in range(n):
        scheme = rng.choice(["http", "https", "https", "https", "ws", "HTTP", "git+ssh", "foo"])
        user = rng.choice(["", "", "", "", "user@", "user:pass@"])
        port = rng.choice(["", "", "", ":8080", ":443", ":80", ":0"])
        frag = rng.choice(["", "", "", "#top", "#a b"])
        f.write(f"{scheme}://{user}{host()}{port}{path()}{query()}{frag}\n")
