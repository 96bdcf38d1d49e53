#!/usr/bin/env python3
"""Writes jsonpath-cts.json: the JSONPath Compliance Test Suite's tests, as data.

Source: jsonpath-standard/jsonpath-compliance-test-suite@7be7c1fc28057c91e8eefaf197060fba7ed43acd,
cts.json (its build of tests/*.json; the RFC 9535 examples are among them). Kept of each test: its
name, selector and document, and either the one result, the results any of which is right (an
object's members may come in any order), or that the selector is invalid.
Run: python3 Tests/PekitCoreTests/Fixtures/jsonpath/make_cts_vectors.py CTS_JSON"""
import json, os, sys

SOURCE = "jsonpath-standard/jsonpath-compliance-test-suite@7be7c1fc28057c91e8eefaf197060fba7ed43acd"

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tests = []
    for t in json.load(open(sys.argv[1], encoding="utf-8"))["tests"]:
        kept = {"name": t["name"], "selector": t["selector"]}
        if t.get("invalid_selector"):
            kept["invalid"] = True
        else:
            kept["document"] = t["document"]
            kept["results"] = t["results"] if "results" in t else [t["result"]]
        tests.append(kept)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "jsonpath-cts.json"), "w", encoding="utf-8") as f:
        json.dump({"made_by": "make_cts_vectors.py", "source": SOURCE, "tests": tests}, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(len(tests), "tests")

main()
