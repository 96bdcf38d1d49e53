#!/usr/bin/env python3
"""Writes http-state-vectors.json: the IETF http-state working group's cookie parser tests, as data.

Source: abarth/http-state@155e45c6168e6de2eb727193010fd12e3c789185, tests/data/parser/ (the
suite RFC 6265 was checked against; WPT's cookies/http-state/ runs the same files). Each test is
two files. NAME-test holds the response of http://home.example.org:8888/cookie-parser?NAME, one
"Field: value" per line: its Set-Cookie fields, and a Location field when the result is read
somewhere other than /cookie-parser-result?NAME. NAME-expected holds the Cookie field the user
agent must send to that URL, or nothing when it must send none (tools/testserver/testserver.py).

Fields are written as latin-1 text (each character one byte), since the files are bytes; tests
named disabled-* are disabled in the suite and are kept with "disabled": true.
Run: python3 Tests/PekitCoreTests/Fixtures/cookies/make_http_state_vectors.py HTTP_STATE_CHECKOUT"""
import json, os, re, sys

SOURCE = "abarth/http-state@155e45c6168e6de2eb727193010fd12e3c789185"

def fields(data):
    out = []
    for line in data.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line.strip():
            continue
        m = re.match(rb"(\S+):\s*(.*)", line)  # the test server's own reading of a line
        out.append((m.group(1).decode("latin-1"), m.group(2).decode("latin-1")))
    return out

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = os.path.join(sys.argv[1], "tests", "data", "parser")
    names = sorted(f[:-len("-test")] for f in os.listdir(directory) if f.endswith("-test"))
    tests = []
    for name in names:
        response = fields(open(os.path.join(directory, name + "-test"), "rb").read())
        expected_path = os.path.join(directory, name + "-expected")
        expected = None
        if os.path.exists(expected_path):
            cookies = re.findall(rb"Cookie:\s*(.*)", open(expected_path, "rb").read())
            expected = cookies[0].rstrip(b"\r").decode("latin-1") if len(cookies) == 1 else None
        location = next((v for k, v in response if k.lower() == "location"), "/cookie-parser-result?" + name)
        tests.append({
            "name": name,
            "set_cookie": [v for k, v in response if k.lower() == "set-cookie"],
            "location": location,
            "expected": expected,
            "disabled": name.startswith("disabled-"),
        })
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "http-state-vectors.json"), "w", encoding="utf-8") as f:
        json.dump({"made_by": "make_http_state_vectors.py", "source": SOURCE,
                   "request": "http://home.example.org:8888/cookie-parser?NAME", "tests": tests},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(len(tests), "tests,", sum(t["disabled"] for t in tests), "disabled")

main()
