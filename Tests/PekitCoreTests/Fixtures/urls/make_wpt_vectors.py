#!/usr/bin/env python3
"""The URL Standard's own tests, as a library syncs them: WPT's url/resources/urltestdata.json and
setters_tests.json from ada-url/ada's tests/wpt (fetched as a snapshot; nothing of ada's code is used).

Writes wpt-vectors.json: {"source", "parse": [...], "setters": [...], "idna": {"IdnaTestV2": [...], "toascii": [...]}}, each WPT case as it is, read by
WPTURLTests, which holds pekit to every one of them.

Usage: python3 make_wpt_vectors.py [ADA_GIT_DIR]   (default /work/.mirror/ada-url+ada/repo)
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/ada-url+ada/repo"

def show(path):
    return subprocess.run(["git", "--git-dir", REPO, "show", "HEAD:" + path] if not os.path.isdir(os.path.join(REPO, ".git"))
                          else ["git", "-C", REPO, "show", "HEAD:" + path], capture_output=True, check=True).stdout

commit = subprocess.run(["git", "--git-dir", REPO, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
parse = [c for c in json.loads(show("tests/wpt/urltestdata.json")) if isinstance(c, dict)]
setters = []
for component, cases in json.loads(show("tests/wpt/setters_tests.json")).items():
    if component == "comment":
        continue
    for c in cases:
        c = dict(c, component=component)
        c.pop("comment", None)
        setters.append(c)
def usv(text):
    # WPT's files hold lone surrogates; a URL reads them as U+FFFD (JavaScript's USVString).
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

# Host names as the URL parser reads them (IdnaTestV2.window.js and toascii.window.js: "https://" +
# input + "/x", its host or a failure); the empty input cannot be tested that way and is left out.
idna = {}
for name in ("IdnaTestV2", "toascii"):
    idna[name] = [{"input": usv(c["input"]), "output": c["output"]} for c in json.loads(show("tests/wpt/%s.json" % name))
                  if isinstance(c, dict) and c["input"] != ""]
out = {"source": "WPT url/resources via ada-url/ada@%s tests/wpt" % commit, "parse": parse, "setters": setters, "idna": idna}
with open(os.path.join(HERE, "wpt-vectors.json"), "w") as f:
    json.dump(out, f, ensure_ascii=False, indent=0)
    f.write("\n")
print(len(parse), "parse cases,", len(setters), "setter cases,", sum(map(len, idna.values())), "host names")
