#!/usr/bin/env python3
"""Seeds the jsonpath fuzz target (Tests/Fuzz/corpus/jsonpath) from the JSONPath Compliance Test
Suite's selectors and documents, as Tests/PekitCoreTests/Fixtures/jsonpath/jsonpath-cts.json holds
them (made by make_cts_vectors.py from the suite's cts.json, which names its commit). A seed is the
selector, a newline, and the test's document as JSON; the hostile shapes of issue 68 are added."""
import hashlib, json, os

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
cts = os.path.join(root, "Tests/PekitCoreTests/Fixtures/jsonpath/jsonpath-cts.json")
out = os.path.join(root, "Tests/Fuzz/corpus/jsonpath")
os.makedirs(out, exist_ok=True)
seeds = []
for test in json.load(open(cts, encoding="utf-8"))["tests"]:
    document = test.get("document", [])
    seeds.append(test["selector"].encode("utf-8") + b"\n" + json.dumps(document, ensure_ascii=False).encode("utf-8"))
# Deep nesting and exponential patterns, the shapes that crashed or hung before.
seeds.append(b"$[?" + b"(" * 100 + b"@" + b")" * 100 + b"]\n[1]")
seeds.append(b"$[?" + b"!(" * 100 + b"@" + b")" * 100 + b"]\n[1]")
seeds.append(b"$" + b"[?@" * 100 + b"]" * 100 + b"\n[[[1]]]")
seeds.append(b"$[?count($[?count($[?@ > 0]) > 0]) > 0]\n" + json.dumps(list(range(60))).encode())
seeds.append(b"$[?match(@, '(a+)+b')]\n" + json.dumps(["a" * 400]).encode())
seeds.append(b"(a|aa)*c\n" + b"a" * 400)
for seed in seeds:
    name = hashlib.sha1(seed).hexdigest()[:16]
    with open(os.path.join(out, name), "wb") as f:
        f.write(seed)
print(f"{len(seeds)} seeds in {os.path.relpath(out, root)}")
