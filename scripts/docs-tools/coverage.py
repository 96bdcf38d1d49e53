#!/usr/bin/env python3
"""Every public declaration of a module has a doc comment: reads the module's symbol graph
(swift-symbolgraph-extract's JSON) and lists, file by file, each public symbol written in the
source with no `///` comment. Members the compiler makes (hashValue, a synthesized init) have no
source location and are not counted; neither is an implementation of a protocol requirement
whose meaning the protocol gives (`description`, `==`, `hash(into:)`, `init(from:)`...).

Usage: coverage.py SYMBOL_GRAPH.json...   (exit 1 when any is undocumented)
"""
import json, sys

# Requirements of the standard library's protocols: their documentation is the protocol's.
PROTOCOL_REQUIREMENTS = {
    "description", "debugDescription", "hash(into:)", "hashValue", "==(_:_:)", "<(_:_:)",
    "init(from:)", "encode(to:)", "errorDescription", "rawValue", "init(rawValue:)", "allCases",
    "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)", "init(booleanLiteral:)",
    "init(arrayLiteral:)", "init(dictionaryLiteral:)", "init(nilLiteral:)", "init(unicodeScalarLiteral:)",
    "init(extendedGraphemeClusterLiteral:)", "makeIterator()", "next()", "startIndex", "endIndex",
    "index(after:)", "index(before:)", "stringValue", "intValue", "init(stringValue:)", "init(intValue:)",
}

def undocumented(path):
    graph = json.load(open(path))
    module = graph["module"]["name"]
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        location = symbol.get("location")
        if not location or symbol.get("docComment"):
            continue
        name = symbol["pathComponents"][-1]
        if name in PROTOCOL_REQUIREMENTS:
            continue
        file = location["uri"].split("/Sources/", 1)[-1]
        yield file, location["position"]["line"] + 1, module + "." + ".".join(symbol["pathComponents"]), symbol["kind"]["displayName"]

def main():
    found = sorted(set(u for path in sys.argv[1:] for u in undocumented(path)))
    for file, line, name, kind in found:
        print(f"Sources/{file}:{line}: {kind} {name} has no doc comment")
    if found:
        print(f"{len(found)} public declarations have no doc comment", file=sys.stderr)
        sys.exit(1)

main()
