#!/usr/bin/env python3
"""Writes wpt-vectors.json: web-platform-tests' cookie parsing tests, as data.

Each listed WPT file's inline <script> is run by Node in an empty vm context where
httpCookieTest(cookie, expected, name, defaultPath = true) -- the helper of
cookies/resources/cookie-test.js -- only records its arguments. In WPT that helper has
/cookies/resources/cookie.py send each string as a Set-Cookie field, then reads document.cookie
(a non-HTTP read, so no HttpOnly cookies) on the test's own page, or, with defaultPath, on
/cookies/resources/echo-cookie.html (the setter's default path).

Sources (the files as they were at these commits):
  web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca: cookies/attributes/invalid.html,
    cookies/attributes/max-age.html, cookies/attributes/expires.html, cookies/value/value.html,
    cookies/encoding/charset.html
  divmain/wpt@5942d002aa87eaaa5e100b456fa08eb7eaf6494d (a mirror of WPT): cookies/name/name.html
Run: python3 Tests/PekitCoreTests/Fixtures/cookies/make_wpt_vectors.py WPT_CHECKOUT"""
import json, os, re, subprocess, sys

FILES = [
    ("cookies/attributes/invalid.html", "web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca"),
    ("cookies/attributes/max-age.html", "web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca"),
    ("cookies/attributes/expires.html", "web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca"),
    ("cookies/value/value.html", "web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca"),
    ("cookies/encoding/charset.html", "web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca"),
    ("cookies/name/name.html", "divmain/wpt@5942d002aa87eaaa5e100b456fa08eb7eaf6494d"),
]
RECORDER = r"""
const vm = require('vm');
const scripts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = scripts.map(script => {
  const tests = [];
  const context = {
    httpCookieTest: (cookie, expected, name, defaultPath = true) =>
      tests.push({ name, cookies: Array.isArray(cookie) ? cookie : [cookie], expected, defaultPath: defaultPath !== false }),
  };
  vm.runInNewContext(script, context);
  return tests;
});
process.stdout.write(JSON.stringify(out));
"""

def inline_scripts(html):
    return "\n".join(m.group(1) for m in re.finditer(r"<script>(.*?)</script>", html, re.S))

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    scripts = [inline_scripts(open(os.path.join(root, path), encoding="utf-8").read()) for path, _ in FILES]
    recorded = json.loads(subprocess.run(["node", "-e", RECORDER], input=json.dumps(scripts), capture_output=True,
                                         text=True, check=True).stdout)
    files = [{"path": path, "source": source, "tests": tests} for (path, source), tests in zip(FILES, recorded)]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "wpt-vectors.json"), "w", encoding="utf-8") as f:
        json.dump({"made_by": "make_wpt_vectors.py", "files": files}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(sum(len(t) for t in recorded), "tests from", len(files), "files")

main()
