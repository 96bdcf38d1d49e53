#!/usr/bin/env python3
"""Generates query-parsing reference vectors from the real servers' parsers, into
parse-vectors.json: qs.parse (node-qs), PHP's parse_str (php-cli), Rack's parse_nested_query
(ruby-rack). Each result is JSON; key order is not compared (JavaScript puts integer keys first).

Needs: apt-get install php-cli ruby-rack node-qs
Run:   python3 Tests/PekitLuaTests/Fixtures/make_parse_vectors.py
"""
import json, os, subprocess
HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = [
    "a=1&b=2", "a=1&a=2", "a[]=1&a[]=2", "a[0]=x&a[1]=y", "a[1]=x&a[3]=y", "a[b][c]=d&a[b][e]=f",
    "a[25]=x", "a[0]=x&a[25]=y", "c[d][e][f][g][h][i]=1", "a+b=c+d&e=%20%2B", "flag", "flag&x=",
    "a.b=c", "a%5Bb%5D=c", "k=1&k[x]=2", "list[]=a&list[]=b&other=c", "a[]=%E5%B0%8F", "=x&y",
    "a[b=1", "a]b=1", "x=1&&y=2", "p=%zz&q=100%", "names[]=a&names[]=b&names[]=c&n=1",
]
NODE = """
const qs = require('qs');
const qsList = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(qsList.map(q => qs.parse(q))));
"""
PHP = r"""
$list = json_decode(stream_get_contents(STDIN), true);
echo json_encode(array_map(function($q) { parse_str($q, $out); return (object)$out; }, $list), JSON_UNESCAPED_UNICODE);
"""
RUBY = r"""
require 'json'; require 'rack'
list = JSON.parse($stdin.read)
print JSON.generate(list.map { |q| begin; Rack::Utils.parse_nested_query(q); rescue => e; {"error" => e.class.name}; end })
"""
def run(cmd, env=None):
    return json.loads(subprocess.run(cmd, input=json.dumps(QUERIES), capture_output=True, text=True, check=True, env=env).stdout)
node = run(["node", "-e", NODE], env=dict(os.environ, NODE_PATH="/usr/share/nodejs"))
php = run(["php", "-r", PHP])
ruby = run(["ruby", "-e", RUBY])
vectors = []
for i, q in enumerate(QUERIES):
    vectors.append({"query": q, "server": "qs", "expected": json.dumps(node[i], ensure_ascii=False)})
    vectors.append({"query": q, "server": "php", "expected": json.dumps(php[i], ensure_ascii=False)})
    if not (isinstance(ruby[i], dict) and "error" in ruby[i]):
        vectors.append({"query": q, "server": "rack", "expected": json.dumps(ruby[i], ensure_ascii=False)})
with open(os.path.join(HERE, "parse-vectors.json"), "w") as f:
    json.dump(vectors, f, ensure_ascii=False, indent=1)
print(len(vectors), "vectors")
