#!/usr/bin/env python3
"""Generates, with Debian's node-qs 6.11: qs-comma-vectors.json, qs.stringify with
{arrayFormat: 'comma', encodeValuesOnly: true}, which the qs-comma-values plugin writes; and
qs-prefix-vectors.json, qs.parse with {ignoreQueryPrefix: true} of inputs with one, two or no '?';
qs-plain-vectors.json, qs.parse with and without {plainObjects: true} of keys named like
Object.prototype's members.

Needs: apt-get install nodejs node-qs. Run: python3 Tests/PekitLuaTests/Fixtures/make_qs_vectors.py
"""
import json, os, subprocess
HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = [
    {"a": ["x", "y", "z"]},
    {"a": ["x", "y,z"], "q": "+,;"},
    {"q": "a,b", "r": "no comma"},
    {"tags": ["c d", "e&f", "g=h"], "one": ["only"]},
    {"u": {"name": "a,b", "list": ["1", "2"]}},
    {"k[x]": ["1,2", "3"]},
    {"empty": [], "blank": "", "comma": ","},
    {"\u00e9": ["\u00fc,\u00e0"], "s": "~!*'()"},
]
NODE = """
const qs = require('qs');
const docs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(docs.map(d => qs.stringify(d, {arrayFormat: 'comma', encodeValuesOnly: true}))));
"""
out = subprocess.run(["node", "-e", NODE], input=json.dumps(DOCS), capture_output=True, text=True, check=True,
                     env=dict(os.environ, NODE_PATH="/usr/share/nodejs")).stdout
vectors = [{"doc": json.dumps(d, ensure_ascii=False), "policy": "qs-comma-values",
            "peer": "qs.stringify arrayFormat comma, encodeValuesOnly", "expected": e} for d, e in zip(DOCS, json.loads(out))]
with open(os.path.join(HERE, "qs-comma-vectors.json"), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, indent=1)
    f.write("\n")
PREFIX = ["?a=1", "??a=1", "a=1", "???a=1&b=2", "?", "??", "?a[b]=1&?c=2", "%3Fa=1"]
NODE_PARSE = """
const qs = require('qs');
const inputs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(inputs.map(s => qs.parse(s, {ignoreQueryPrefix: true}))));
"""
parsed = subprocess.run(["node", "-e", NODE_PARSE], input=json.dumps(PREFIX), capture_output=True, text=True, check=True,
                        env=dict(os.environ, NODE_PATH="/usr/share/nodejs")).stdout
prefix = [{"input": i, "expected": json.dumps(p, ensure_ascii=False, separators=(",", ":"))} for i, p in zip(PREFIX, json.loads(parsed))]
with open(os.path.join(HERE, "qs-prefix-vectors.json"), "w") as f:
    json.dump(prefix, f, ensure_ascii=False, indent=1)
    f.write("\n")
PLAIN = ["hasOwnProperty=1", "toString[a]=2&b=1", "a[hasOwnProperty]=1&a[b]=2", "__proto__[x]=1&y=2", "a[__proto__][b]=1&c=3",
         "constructor=1&valueOf[]=2", "a[toString]=1&a[toString]=2", "isPrototypeOf"]
NODE_PLAIN = """
const qs = require('qs');
const inputs = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(inputs.map(s => [qs.parse(s, {plainObjects: true}), qs.parse(s)])));
"""
parsed = subprocess.run(["node", "-e", NODE_PLAIN], input=json.dumps(PLAIN), capture_output=True, text=True, check=True,
                        env=dict(os.environ, NODE_PATH="/usr/share/nodejs")).stdout
plain = []
for i, (on, off) in zip(PLAIN, json.loads(parsed)):
    plain.append({"input": i, "plainObjects": True, "expected": json.dumps(on, separators=(",", ":"))})
    plain.append({"input": i, "plainObjects": False, "expected": json.dumps(off, separators=(",", ":"))})
with open(os.path.join(HERE, "qs-plain-vectors.json"), "w") as f:
    json.dump(plain, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(f"{len(vectors)} stringify vectors, {len(prefix)} ignoreQueryPrefix vectors, {len(plain)} plainObjects vectors")
