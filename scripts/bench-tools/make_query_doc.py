#!/usr/bin/env python3
"""Writes the query benchmark document: 100,000 leaves in nested maps and arrays, mixed
ASCII and CJK text, deterministic. usage: make_query_doc.py OUT.json [LEAVES]"""
import json, random, sys
rng = random.Random(4)
words = ["alpha", "beta", "gamma", "汉字", "漢字", "テスト", "a b", "x&y", "100%", "ok", "参数", "k=v"]
def text(): return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
leaves = 0
doc = {}
s = 0
target = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
while leaves < target:
    section = {}
    for i in range(10):
        item = {"name": text(), "id": str(rng.randint(1, 10**6)), "tags": [text() for _ in range(3)],
                "meta": {"lang": rng.choice(["zh", "en", "ja"]), "note": text()}}
        section["item%d" % i] = item
        leaves += 7
    doc["section%d" % s] = section
    s += 1
json.dump(doc, open(sys.argv[1], "w"), ensure_ascii=False)
