#!/usr/bin/env python3
"""Generates query-string reference vectors from the real implementations, into
query-vectors.json: qs.stringify (Debian's node-qs 6.11), PHP 8.2's http_build_query (php-cli),
Rack 2.2's Rack::Utils.build_nested_query (ruby-rack), jQuery 3.6.1's jQuery.param (Debian's
libjs-jquery, run in node with a stub window), node's querystring.stringify, Go 1.19's
url.Values.Encode (golang-go) and requests' parameter encoding (PyPI requests), each on the
documents it can take (see the notes at each peer).

Needs: apt-get install php-cli ruby-rack node-qs libjs-jquery golang-go; pip install requests
Run:   python3 Tests/PekitLuaTests/Fixtures/make_query_vectors.py
"""
import json, os, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = [
    {"name": "p&p", "nick_name": "p&p[]@= =!", "father name": "~!@#$%^&*(){}"},
    {"name": "小A", "phone": {"mobile": "xx", "home": "xx"}, "families": ["father", "mother"],
     "does_not_include": "/?", "space": " ", "GeneralDelimitersToEncode": ":#[]@", "SubDelimitersToEncode": "!$&'()*+,;="},
    {"b": "2", "a": "1", "c": {"z": "x y", "y": ["1", "2"]}},
    {"list": ["a", "b", "c"], "n": 5, "f": 1.5, "t": True, "nested": {"deep": {"er": "x"}}},
    {"emoji": "👍🏽", "ctl": "a\tb\nc", "tilde": "~*'()!", "plus": "1+1=2", "pct": "100%"},
    {"arr": [{"a": "1"}, {"b": "2"}], "mixed": ["x", {"y": "z"}]},
    {"key with space": "v", "k[]": "brackets in key", "dot.key": "d"},
    {"commas": ["x,y", "z"], "single": ["only"]},
    {"n": None, "list": ["a", None, "b"], "m": {"k": None}},
    {"e": [], "o": {}, "after": "x"},
    {"f": False, "t": True, "zero": 0, "neg": -12},
    {"n": None, "list": ["a", None, "b"], "s": "x", "e": [], "after": "é ü"},
]

NODE = """
const qs = require('qs');
const docs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
for (const fmt of ['indices', 'brackets', 'repeat', 'comma']) out[fmt] = docs.map(d => qs.stringify(d, {arrayFormat: fmt}));
process.stdout.write(JSON.stringify(out));
"""
PHP = r"""
$docs = json_decode(stream_get_contents(STDIN), true);
echo json_encode(array_map(fn($d) => http_build_query($d), $docs), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
"""
RUBY = r"""
require 'json'; require 'rack'
docs = JSON.parse($stdin.read)
print JSON.generate(docs.map { |d| Rack::Utils.build_nested_query(d) })
"""

def run(cmd, env=None, docs=DOCS):
    return json.loads(subprocess.run(cmd, input=json.dumps(docs, ensure_ascii=False), capture_output=True, text=True,
                                     check=True, env=env).stdout)

# jQuery 3.6.1 needs a window to start; param() needs nothing of it.
JQUERY = """
function stub() {
  const f = function () { return stub(); };
  return new Proxy(f, { get(t, k) {
    if (k === Symbol.toPrimitive) return () => '';
    if (k === 'length') return 0;
    if (k === 'nodeType') return 9;
    return stub();
  } });
}
const $ = require('/usr/share/javascript/jquery/jquery.js')({ document: stub(), addEventListener() {}, removeEventListener() {},
  navigator: { userAgent: 'node' }, location: { href: 'http://x/' }, Array, Object, Date, Math, JSON, RegExp, String, Error,
  setTimeout, clearTimeout });
const docs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify({ version: $.fn.jquery, out: docs.map(d => $.param(d)) }));
"""
QUERYSTRING = """
const docs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(docs.map(d => require('querystring').stringify(d))));
"""
GO = """
package main

import ("encoding/json"; "net/url"; "os")

func main() {
	var docs []map[string][]string
	if err := json.NewDecoder(os.Stdin).Decode(&docs); err != nil { panic(err) }
	out := []string{}
	for _, d := range docs { out = append(out, url.Values(d).Encode()) }
	json.NewEncoder(os.Stdout).Encode(out)
}
"""
REQUESTS = """
import json, sys, requests
docs = json.load(sys.stdin)
print(json.dumps([requests.models.RequestEncodingMixin._encode_params(d) for d in docs]))
"""

def nested(value):
    return isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value))

# querystring and requests do not nest: querystring writes a nested object as an empty value
# and requests writes a dict's keys as its values; pekit writes brackets there (README).
FLAT_DOCS = [d for d in DOCS if not any(nested(v) for v in d.values())]
# Go's url.Values holds lists of strings only.
GO_DOCS = [{k: (v if isinstance(v, list) else [v]) for k, v in d.items()} for d in FLAT_DOCS
           if all(isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)) for v in d.values())]
GO_DOCS += [{"b": ["2", "1"], "a": ["x y"], "A": ["~!*'()"], "\u00e9": ["\u00fc"], "": ["empty key"], "a b": ["+&="]}]

node = run(["node", "-e", NODE], env=dict(os.environ, NODE_PATH="/usr/share/nodejs"))
php = run(["php", "-r", PHP])
jquery = run(["node", "-e", JQUERY])
assert jquery["version"] == "3.6.1", jquery["version"]
querystring = run(["node", "-e", QUERYSTRING], docs=FLAT_DOCS)
requests_out = run(["python3", "-c", REQUESTS], docs=FLAT_DOCS)
with open("/tmp/pekit_go_encode.go", "w") as f:
    f.write(GO)
go = run(["go", "run", "/tmp/pekit_go_encode.go"], env=dict(os.environ, GOCACHE="/tmp/pekit-go-cache"), docs=GO_DOCS)
ruby = run(["ruby", "-e", RUBY])
vectors = []
for i, doc in enumerate(DOCS):
    text = json.dumps(doc, ensure_ascii=False)
    vectors.append({"doc": text, "policy": "qs", "peer": "qs.stringify", "expected": node["indices"][i]})
    vectors.append({"doc": text, "policy": "qs-brackets", "peer": "qs.stringify arrayFormat brackets", "expected": node["brackets"][i]})
    vectors.append({"doc": text, "policy": "qs-repeat", "peer": "qs.stringify arrayFormat repeat", "expected": node["repeat"][i]})
    # qs writes "[object Object]" for objects inside comma arrays; pekit falls back to indices there.
    if "%5Bobject%20Object%5D" not in node["comma"][i]:
        vectors.append({"doc": text, "policy": "qs-comma", "peer": "qs.stringify arrayFormat comma", "expected": node["comma"][i]})
    vectors.append({"doc": text, "policy": "php", "peer": "php http_build_query", "expected": php[i]})
    vectors.append({"doc": text, "policy": "rack", "peer": "Rack::Utils.build_nested_query", "expected": ruby[i]})
    vectors.append({"doc": text, "policy": "jquery", "peer": "jQuery 3.6.1 jQuery.param", "expected": jquery["out"][i]})
for i, doc in enumerate(FLAT_DOCS):
    text = json.dumps(doc, ensure_ascii=False)
    vectors.append({"doc": text, "policy": "node-querystring", "peer": "node querystring.stringify", "expected": querystring[i]})
    vectors.append({"doc": text, "policy": "python-requests", "peer": "requests (urlencode with doseq)", "expected": requests_out[i]})
for i, doc in enumerate(GO_DOCS):
    vectors.append({"doc": json.dumps(doc, ensure_ascii=False), "policy": "go", "peer": "Go url.Values.Encode", "expected": go[i]})
with open(os.path.join(HERE, "query-vectors.json"), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, indent=1)
print(len(vectors), "vectors")
