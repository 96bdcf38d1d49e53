#!/usr/bin/env python3
"""Generates query-string reference vectors from the real implementations, into
query-vectors.json: qs.stringify (Debian's node-qs 6.11), PHP 8.2's http_build_query (php-cli),
Rack 2.2's Rack::Utils.build_nested_query (ruby-rack), jQuery 3.6.1's jQuery.param (Debian's
libjs-jquery, run in node with a stub window), node's querystring.stringify, Go 1.19's
url.Values.Encode (golang-go), requests' parameter encoding (PyPI requests), and Alamofire
5.12.0's URLEncoding and URLEncodedFormEncoder, built from its source with this machine's Swift
and run on Linux (swift-corelibs-foundation), each on the documents it can take (see the notes
at each peer).

Needs: apt-get install php-cli ruby-rack node-qs libjs-jquery golang-go; pip install requests;
       ALAMOFIRE_DIR, a checkout of github.com/Alamofire/Alamofire at tag 5.12.0 (without it,
       the Alamofire vectors already in query-vectors.json are kept).
Run:   ALAMOFIRE_DIR=... python3 Tests/PekitLuaTests/Fixtures/make_query_vectors.py
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
const docs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
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
docs = JSONText.parse($stdin.read)
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
const docs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify({ version: $.fn.jquery, out: docs.map(d => $.param(d)) }));
"""
QUERYSTRING = """
const docs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
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

# Alamofire: a Swift package that depends on the checkout by path, reads the documents as
# tagged JSON (so integers, doubles, nulls and key order survive), and writes what
# URLEncoding.queryString puts in the URL (the documents as JSONSerialization gives them, NSNull
# for null) and what URLEncodedFormEncoder() writes for the same document as an Encodable.
ALAMOFIRE_PACKAGE = """// swift-tools-version:5.9
import PackageDescription
let package = Package(name: "afvectors", dependencies: [.package(path: "%s")],
    targets: [.executableTarget(name: "afvectors", dependencies: [.product(name: "Alamofire", package: "Alamofire")])])
"""
ALAMOFIRE_MAIN = """
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Alamofire

indirect enum Node: Codable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([Node]), object([(String, Node)])

    init(from decoder: any Decoder) throws {
        struct Pair: Decodable { let k: String; let v: Node }
        enum K: String, CodingKey { case t, v }
        let c = try decoder.container(keyedBy: K.self)
        switch try c.decode(String.self, forKey: .t) {
        case "null": self = .null
        case "bool": self = .bool(try c.decode(Bool.self, forKey: .v))
        case "int": self = .int(try c.decode(Int.self, forKey: .v))
        case "double": self = .double(try c.decode(Double.self, forKey: .v))
        case "string": self = .string(try c.decode(String.self, forKey: .v))
        case "array": self = .array(try c.decode([Node].self, forKey: .v))
        default: self = .object(try c.decode([Pair].self, forKey: .v).map { ($0.k, $0.v) })
        }
    }

    struct Key: CodingKey {
        var stringValue: String; var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let pairs):
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in pairs {
                if case .null = v { try c.encodeNil(forKey: Key(k)) } else { try c.encode(v, forKey: Key(k)) }
            }
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for v in items { if case .null = v { try c.encodeNil() } else { try c.encode(v) } }
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .double(let x): var c = encoder.singleValueContainer(); try c.encode(x)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        }
    }

    var any: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let n): return n
        case .double(let x): return x
        case .string(let s): return s
        case .array(let items): return items.map(\\.any)
        case .object(let pairs): return Dictionary(pairs.map { ($0.0, $0.1.any) }, uniquingKeysWith: { a, _ in a })
        }
    }
}

let docs = try JSONDecoder().decode([Node].self, from: FileHandle.standardInput.readDataToEndOfFile())
var urlEncoding: [String] = []
var formEncoder: [String] = []
for doc in docs {
    guard let parameters = doc.any as? [String: Any], let url = URL(string: "http://h/") else { exit(1) }
    let request = try URLEncoding.queryString.encode(URLRequest(url: url), with: parameters)
    urlEncoding.append(request.url?.query ?? "")
    formEncoder.append(try URLEncodedFormEncoder().encode(doc) as String)
}
let out = try JSONSerialization.data(withJSONObject: ["URLEncoding": urlEncoding, "URLEncodedFormEncoder": formEncoder])
FileHandle.standardOutput.write(out)
"""
# Numbers and key order that only Alamofire's encoders are asked about.
ALAMOFIRE_DOCS = [
    {"x": 1e20, "y": 0.1, "z": 1 / 3, "w": 3.0, "sum": 0.1 + 0.2, "a": [2, 10, 1]},
    {"o": {"z": "1", "a": "2"}, "arr": [{"b": "1", "a": "2"}], "deep": {"z": {"b": "1"}, "a": ["x"]}},
    {"k[]": "xz", "k": ["x", "y"], "s": "", "": "v", "d": {"x": None}},
    {"emoji": "👍🏽 x", "plus": "1+1=2", "pct": "100%", "q": "/?:#[]@!$&'()*+,;=~"},
]

def tagged(v):
    if v is None: return {"t": "null"}
    if isinstance(v, bool): return {"t": "bool", "v": v}
    if isinstance(v, int): return {"t": "int", "v": v}
    if isinstance(v, float): return {"t": "double", "v": v}
    if isinstance(v, str): return {"t": "string", "v": v}
    if isinstance(v, list): return {"t": "array", "v": [tagged(x) for x in v]}
    return {"t": "object", "v": [{"k": k, "v": tagged(x)} for k, x in v.items()]}

def doubles(v):
    if isinstance(v, float): yield v
    elif isinstance(v, list): yield from (x for i in v for x in doubles(i))
    elif isinstance(v, dict): yield from (x for i in v.values() for x in doubles(i))

def unordered(v):
    """Whether a map below the top has two keys: URLEncoding writes those in Dictionary order,
    which Swift seeds per process, so only the set of pairs is Alamofire's."""
    if isinstance(v, list): return any(unordered(x) or (isinstance(x, dict) and len(x) > 1) for x in v)
    if isinstance(v, dict): return any(unordered(x) or (isinstance(x, dict) and len(x) > 1) for x in v.values())
    return False

def alamofire_vectors(docs):
    root = os.environ.get("ALAMOFIRE_DIR")
    if not root:
        with open(os.path.join(HERE, "query-vectors.json")) as f:
            kept = [v for v in json.load(f) if v["policy"].startswith("alamofire")]
        print("ALAMOFIRE_DIR is not set: keeping the", len(kept), "Alamofire vectors already there")
        return kept
    work = "/tmp/pekit-alamofire-vectors"
    os.makedirs(os.path.join(work, "Sources/afvectors"), exist_ok=True)
    with open(os.path.join(work, "Package.swift"), "w") as f:
        f.write(ALAMOFIRE_PACKAGE % os.path.abspath(root))
    with open(os.path.join(work, "Sources/afvectors/main.swift"), "w") as f:
        f.write(ALAMOFIRE_MAIN)
    subprocess.run(["swift", "build", "-c", "release", "--package-path", work], check=True, capture_output=True)
    out = json.loads(subprocess.run([os.path.join(work, ".build/release/afvectors")], check=True, capture_output=True,
                                    input=json.dumps([tagged(d) for d in docs]).encode()).stdout)
    vectors = []
    for i, doc in enumerate(docs):
        text = json.dumps(doc, ensure_ascii=False)
        # URLEncoding writes a number as NSNumber's description: "%0.16g" on Apple's platforms
        # (what the alamofire policy writes), Swift's description in swift-corelibs-foundation,
        # where these vectors were made. A document with a double the two write differently
        # (3.0, 0.1 + 0.2) is left out rather than held to Linux's text.
        if all("%.16g" % x == repr(x) for x in doubles(doc)):
            vector = {"doc": text, "policy": "alamofire", "peer": "Alamofire 5.12.0 URLEncoding.queryString", "expected": out["URLEncoding"][i]}
            if unordered(doc): vector["order"] = "unspecified"
            vectors.append(vector)
        vectors.append({"doc": text, "policy": "alamofire-form", "peer": "Alamofire 5.12.0 URLEncodedFormEncoder()", "expected": out["URLEncodedFormEncoder"][i]})
    return vectors

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
vectors += alamofire_vectors(DOCS + ALAMOFIRE_DOCS)
with open(os.path.join(HERE, "query-vectors.json"), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, indent=1)
print(len(vectors), "vectors")
