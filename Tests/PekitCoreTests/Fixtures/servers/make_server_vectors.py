#!/usr/bin/env python3
"""Generates server-vectors.json: what each real server's query parser reads from each input.

Models and the peers that produced them (all from Debian 12 / this machine):
  qs                node-qs 6.11 qs.parse               (run_node.js)
  php               PHP 8.2 parse_str, -d ini limits    (run_php.php)
  rack              Rack 2.2 parse_nested_query         (run_rack.rb)
  python            Python 3.11 urllib.parse.parse_qs   (here)
  go                Go 1.19 net/url.ParseQuery          (run_go.go)
  whatwg            node's URLSearchParams (the application/x-www-form-urlencoded parser)
  node-querystring  node's querystring.parse            (run_node.js)

Canonical form of a result: a map is {"$map": [[key, value], ...]} in the server's order, a string
that is not UTF-8 is {"$bytes": hex}, a raised error is {"$error": class, "message": text}; the
go model is {"values": map, "error": text or null} (keys sorted: Go's map has no order).

Needs: apt-get install nodejs node-qs php-cli ruby-rack golang-go
Run:   python3 Tests/PekitCoreTests/Fixtures/servers/make_server_vectors.py
"""
import json, os, subprocess, sys, urllib.parse
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from peers import run
from inputs import COMMON

def keys(n, sep="&", fmt="k{i}=v"):
    return sep.join(fmt.format(i=i) for i in range(n))

def nested(levels, name="a"):
    return name + "".join("[x%d]" % i for i in range(levels)) + "=1"

SUBSET = [q for q in COMMON if any(c in q for c in "[].%;,&#?") or q in ("", "a", "a=1")][:70]
cases = []
def add(model, queries, options=None):
    for q in queries:
        cases.append({"model": model, "query": q, "options": options or {}})

# qs: every input with the defaults, each option on the inputs it touches, and each limit at and past its bound.
add("qs", COMMON)
for o in [{"allowDots": True}, {"depth": 0}, {"depth": False}, {"depth": 1}, {"depth": 10}, {"arrayLimit": 0},
          {"arrayLimit": -1}, {"arrayLimit": 100}, {"parseArrays": False}, {"strictNullHandling": True}, {"comma": True},
          {"allowPrototypes": True}, {"allowSparse": True}, {"charset": "iso-8859-1"}, {"charsetSentinel": True},
          {"charset": "iso-8859-1", "interpretNumericEntities": True}, {"charsetSentinel": True, "interpretNumericEntities": True},
          {"ignoreQueryPrefix": True}, {"delimiter": ";"}, {"delimiter": {"pattern": "[;,]"}}, {"parameterLimit": 2},
          {"parameterLimit": 0}, {"allowDots": True, "depth": 1}, {"comma": True, "strictNullHandling": True}]:
    add("qs", SUBSET, o)
add("qs", [keys(1000), keys(1001), keys(999) + "&&x=1", "a=1&&&b=2&c=3"])
add("qs", ["a=1&&&b=2&c=3", "a&b&c&d"], {"parameterLimit": 3})
add("qs", [keys(3), keys(4)], {"parameterLimit": "inf"})

# PHP: defaults (max_input_vars 1000, max_input_nesting_level 64), then smaller limits.
add("php", COMMON)
add("php", [keys(1000), keys(1001), keys(1000) + "&&&", "&&" + keys(1001), nested(64), nested(65),
            "a[y]=0&" + nested(65), nested(65) + "&a[y]=0", nested(64, "b") + "&" + nested(65, "b")])
add("php", ["a=1&b=2&c=3", "a=1&b=2&c=3&d=4", "a=1&&b=2&&c=3&d=4", "a[b]=1&a[c][d]=2&e=3"], {"max_input_vars": 3})
add("php", ["a[b]=1", "a[b][c]=1", "a[b][c][d]=1", "a[b]=0&a[b][c][d]=1", "a[]=1&a[][][]=2"], {"max_input_nesting_level": 2})

# Rack 2.2: defaults, then each limit at and past its bound.
add("rack", COMMON)
add("rack", [keys(4096), keys(4095), keys(4096, ";")])
add("rack", [nested(99), nested(100), nested(98)])
add("rack", ["a=1&b=2&c=3", "a=1&b=2&c=3&d=4", "a=1;b=2;c=3"], {"params_limit": 3})
add("rack", ["abcd=1", "abcde=1", "ab=1&cd=2&e=3", "a[bcd]=1", "a[bcde]=1"], {"key_space_limit": 4})
add("rack", ["a=1", "a[b]=1", "a[b][c]=1", "a[][b]=1"], {"param_depth_limit": 2})
add("rack", ["a=123", "a=1234", "a=12345"], {"bytesize_limit": 5})
add("rack", ["a=1;b=2,c=3&d=4", "a=1, b=2"], {"separators": ";,"})
add("rack", ["a=1;b=2&c=3", "a=1& b=2"], {"separators": "&"})

# Python 3.11 parse_qs.
add("python", COMMON)
for o in [{"keep_blank_values": True}, {"strict_parsing": True}, {"strict_parsing": True, "keep_blank_values": True},
          {"separator": ";"}, {"encoding": "latin-1"}, {"errors": "ignore"}, {"errors": "strict"}, {"errors": "backslashreplace"}]:
    add("python", SUBSET, o)
add("python", ["a=1&b=2", "a=1&b=2&c=3", "a=1&&b", "", "a"], {"max_num_fields": 2})
add("python", ["a=1&b=2", "a=1&b=2&c=3"], {"max_num_fields": 3})

add("go", COMMON)
add("whatwg", COMMON)
add("node-querystring", COMMON)
add("node-querystring", [keys(1000), keys(1001), "&&&" + keys(1000)])
add("node-querystring", ["a=1&b=2&c=3", "a=1&&b=2&c=3", "&a=1&b=2"], {"maxKeys": 2})
add("node-querystring", ["a=1&b=2&c=3"], {"maxKeys": 0})
add("node-querystring", ["a:1;b:2;;c", "a::1;b:2", "a=1;b;=2"], {"sep": ";", "eq": ":"})
add("node-querystring", ["a=1&&b=2", "a==1&&b", "x&&&&y"], {"sep": "&&", "eq": "=="})

# Random inputs from the characters parsers disagree on (fixed seed: the file is reproducible).
import random
# `--seed N --out FILE`: the random inputs from another seed, written to FILE instead (what
# LiveServerDifferentialTests runs on the real servers, a new seed each time).
ARGS = dict(zip(sys.argv[1::2], sys.argv[2::2]))
rng = random.Random(int(ARGS.get("--seed", 20261130)))
ATOMS = ["a", "b", "0", "1", "25", "-1", "[", "]", "[]", "[0]", "[x]", ".", "=", "&", ";", " ", "+", "%", "%2", "%5B",
         "%5D", "%26", "%3D", "%20", "%FF", "%E5%B0%8F", "%E5", "%00", "\u5c0f", "__proto__", "toString", "\n", "?", ","]
def random_query():
    return "".join(rng.choice(ATOMS) for _ in range(rng.randint(1, 14)))
for model in ["qs", "php", "rack", "python", "go", "whatwg", "node-querystring"]:
    add(model, [random_query() for _ in range(300)])
add("qs", [random_query() for _ in range(100)], {"allowDots": True, "comma": True, "strictNullHandling": True})
add("qs", [random_query() for _ in range(100)], {"allowDots": True, "depth": 2, "arrayLimit": 3, "parseArrays": True})
add("python", [random_query() for _ in range(100)], {"keep_blank_values": True, "errors": "backslashreplace"})
# Every option on random input too.
for o in [{"allowDots": True}, {"depth": 0}, {"depth": 1}, {"arrayLimit": 0}, {"parseArrays": False}, {"strictNullHandling": True},
          {"comma": True}, {"allowPrototypes": True}, {"allowSparse": True}, {"charset": "iso-8859-1"}, {"charsetSentinel": True},
          {"charset": "iso-8859-1", "interpretNumericEntities": True}, {"ignoreQueryPrefix": True}, {"delimiter": ";"},
          {"delimiter": {"pattern": "[;,]"}}, {"parameterLimit": 3}, {"allowDots": True, "allowPrototypes": True, "comma": True}]:
    add("qs", [random_query() for _ in range(40)], o)
for o in [{"max_input_vars": 2}, {"max_input_nesting_level": 1}]:
    add("php", [random_query() for _ in range(60)], o)
for o in [{"separators": ";,"}, {"param_depth_limit": 2}, {"key_space_limit": 3}, {"params_limit": 2}]:
    add("rack", [random_query() for _ in range(60)], o)
for o in [{"strict_parsing": True}, {"separator": ";"}, {"encoding": "latin-1"}, {"errors": "strict"}, {"max_num_fields": 3}]:
    add("python", [random_query() for _ in range(40)], o)
for o in [{"sep": ";", "eq": ":"}, {"maxKeys": 2}, {"sep": "&&", "eq": "=="}]:
    add("node-querystring", [random_query() for _ in range(60)], o)

def python_model(c):
    o = c["options"]
    try:
        result = urllib.parse.parse_qs(c["query"], keep_blank_values=o.get("keep_blank_values", False),
                                       strict_parsing=o.get("strict_parsing", False), encoding=o.get("encoding", "utf-8"),
                                       errors=o.get("errors", "replace"), max_num_fields=o.get("max_num_fields"),
                                       separator=o.get("separator", "&"))
        return {"$map": [[k, v] for k, v in result.items()]}
    except Exception as e:
        return {"$error": type(e).__name__, "message": str(e)}

results = [None] * len(cases)
def fill(model, runner):
    idx = [i for i, c in enumerate(cases) if c["model"] in model]
    for i, r in zip(idx, runner([cases[i] for i in idx])):
        results[i] = r

fill({"qs", "whatwg", "node-querystring"}, lambda items: run(["node", os.path.join(HERE, "run_node.js")], items,
                                                           env=dict(os.environ, NODE_PATH="/usr/share/nodejs")))
php_groups = {}
for i, c in enumerate(cases):
    if c["model"] == "php":
        php_groups.setdefault(json.dumps(c["options"], sort_keys=True), []).append(i)
for key, idx in php_groups.items():
    o = json.loads(key)
    flags = ["-d", "max_input_vars=%d" % o.get("max_input_vars", 1000),
             "-d", "max_input_nesting_level=%d" % o.get("max_input_nesting_level", 64)]
    for i, r in zip(idx, run(["php"] + flags + [os.path.join(HERE, "run_php.php")], [cases[i] for i in idx])):
        results[i] = r
fill({"rack"}, lambda items: run(["ruby", os.path.join(HERE, "run_rack.rb")], items))
fill({"go"}, lambda items: run(["go", "run", os.path.join(HERE, "run_go.go")], items,
                               env=dict(os.environ, GOCACHE="/tmp/pekit-go-cache", GOFLAGS="-mod=mod")))
for i, c in enumerate(cases):
    if c["model"] == "python":
        results[i] = python_model(c)

vectors = [dict(c, expected=r) for c, r in zip(cases, results)]
with open(ARGS.get("--out", os.path.join(HERE, "server-vectors.json")), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
counts = {}
for v in vectors:
    counts[v["model"]] = counts.get(v["model"], 0) + 1
print(len(vectors), "vectors:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
