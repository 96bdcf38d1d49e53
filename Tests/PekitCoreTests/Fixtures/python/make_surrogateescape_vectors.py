#!/usr/bin/env python3
"""Generates surrogateescape-vectors.json: Python 3.11's urllib.parse.parse_qsl with
errors="surrogateescape", each name and value given back as the bytes
str.encode(encoding, "surrogateescape") makes of it (hex), for the `python` model's
errors = "surrogateescape". Run: python3 Tests/PekitCoreTests/Fixtures/python/make_surrogateescape_vectors.py
"""
import json, os, urllib.parse
HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = ["a=%FF%41", "b=%C3%A9&c=%C3", "%E5%B0=x&%E5%B0%8F=y", "d=%80%80%C3%A9%FF", "e=%F0%9F%98", "plain=1&x=%ED%A0%80"]
vectors = []
for encoding in ["utf-8", "ascii"]:
    for q in QUERIES:
        pairs = urllib.parse.parse_qsl(q, keep_blank_values=True, encoding=encoding, errors="surrogateescape")
        vectors.append({"query": q, "encoding": encoding,
                        "pairs": [[k.encode(encoding, "surrogateescape").hex(), v.encode(encoding, "surrogateescape").hex()] for k, v in pairs]})
with open(os.path.join(HERE, "surrogateescape-vectors.json"), "w") as f:
    json.dump(vectors, f, indent=1)
    f.write("\n")
print(len(vectors), "vectors")
