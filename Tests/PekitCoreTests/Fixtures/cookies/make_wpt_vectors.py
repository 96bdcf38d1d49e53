#!/usr/bin/env python3
"""Writes wpt-vectors.json: web-platform-tests' cookie parsing tests, as data.

Each listed WPT file's inline <script> is run by Node in an empty vm context where
httpCookieTest(cookie, expected, name, defaultPath = true) -- the helper of
cookies/resources/cookie-test.js -- only records its arguments. In WPT that helper has
/cookies/resources/cookie.py send each string as a Set-Cookie field, then reads document.cookie
(a non-HTTP read, so no HttpOnly cookies) on the test's own page, or, with defaultPath, on
/cookies/resources/echo-cookie.html (the setter's default path).

Files of the second kind (SCENARIOS) are scripts whose tests fetch, read document.cookie and
open frames. Each is run whole in a vm context that plays the browser's part and records what
each test does, in order: a Set-Cookie field received from a URL (cookie.py's `set`), a
document.cookie write, the jar cleared (test_driver.delete_all_cookies), and each read (a
fetch's Cookie header, or document.cookie in a frame) with what WPT's own assertion expects of
it (the whole header, a prefix of it, or one cookie's value). Cleanups are not run: every test
starts from an empty jar. Fields are written as latin-1 text, one character a byte, since
cookie.py sends the bytes its query percent-decodes to.

Sources (the files as they were at these commits):
  web-platform-tests/wpt@23d0f251e9ee57117f1e99026042b522c8fd2cca: cookies/attributes/invalid.html,
    cookies/attributes/max-age.html, cookies/attributes/expires.html, cookies/value/value.html,
    cookies/encoding/charset.html
  divmain/wpt@5942d002aa87eaaa5e100b456fa08eb7eaf6494d (a mirror of WPT): cookies/name/name.html
  web-platform-tests/wpt@12f6d5e5e12dab5867a6376f009dee89eef4c880: cookies/path/match-segment-boundaries.https.window.js,
    cookies/path/non-ascii-path-attribute.https.window.js
  web-platform-tests/wpt@0c2501974b2a55c2458790ee9000711f3bafa960: cookies/path/match-percent-encoded.https.window.js
  web-platform-tests/wpt@7ba079d51b44cb2e64498ba89ba4c8e164215d48: cookies/prefix/__host.explicit-path.https.window.js
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
SCENARIOS = [
    ("cookies/path/match-segment-boundaries.https.window.js", "web-platform-tests/wpt@12f6d5e5e12dab5867a6376f009dee89eef4c880"),
    ("cookies/path/non-ascii-path-attribute.https.window.js", "web-platform-tests/wpt@12f6d5e5e12dab5867a6376f009dee89eef4c880"),
    ("cookies/path/match-percent-encoded.https.window.js", "web-platform-tests/wpt@0c2501974b2a55c2458790ee9000711f3bafa960"),
    ("cookies/prefix/__host.explicit-path.https.window.js", "web-platform-tests/wpt@7ba079d51b44cb2e64498ba89ba4c8e164215d48"),
]
ORIGIN = "https://web-platform.test"
# Tests that make no cookie step: the service worker's own cleanup.
NOT_COOKIE_TESTS = {"cleanup: unregister the service worker"}
SCENARIO_RECORDER = r"""
const vm = require('vm');
const { path, origin, skip } = JSONText.parse(process.argv[1]);
const script = require('fs').readFileSync(0, 'utf8');
const page = origin + '/' + path.replace(/\.js$/, '.html');
const latin1 = bytes => Buffer.from(bytes).toString('latin1');
const asBytes = text => latin1(Buffer.from(text, 'utf8'));
let steps = null;
// What a test read, until an assertion says what it must be.
class Observed { constructor(step) { this.step = step; } trim() { return this; }
  startsWith(prefix) { this.step.starts_with = prefix; return true; } }
class ValueOf { constructor(observed, name) { this.step = observed.step; this.name = name; } }
function read(url, http) { const step = { read: new URL(url, page).href, http }; steps.push(step); return new Observed(step); }
function fakeDocument(url) {
  return { get cookie() { return read(url, false); },
           set cookie(text) { steps.push({ set: asBytes(text), from: url, http: false }); } };
}
function fakeFrame() {
  const listeners = [];
  const frame = { style: '', src: '', contentWindow: null, remove() {},
    addEventListener(kind, f) { if (kind === 'load') listeners.push(f); } };
  frame.load = () => {
    const url = new URL(frame.src, page).href;
    frame.contentWindow = { location: { pathname: new URL(url).pathname }, document: fakeDocument(url) };
    Promise.resolve().then(() => listeners.forEach(f => f()));
  };
  return frame;
}
const context = {
  URL, Promise, JSON, encodeURIComponent, decodeURIComponent,
  promise_setup() {},
  tests: [],
  promise_test(f, name) { context.tests.push({ f, name }); },
  test_driver: { delete_all_cookies: async () => { steps.push({ clear: true }); } },
  async fetch(url) {
    const target = new URL(url, page);
    if (target.pathname === '/cookies/resources/cookie.py' && target.search.startsWith('?set=')) {
      // wptserve percent-decodes the query into bytes; cookie.py sends them as they are.
      const bytes = latin1(Buffer.from(target.search.slice(5).replace(/%([0-9A-Fa-f]{2})/g,
        (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1'));
      for (const field of JSONText.parse(bytes)) steps.push({ set: field, from: target.href, http: true });
      return { ok: true };
    }
    const observed = read(target.href, true);
    return { ok: true, text: async () => observed };
  },
  assert_true(value, message) { if (value !== true) throw new Error('assert_true: ' + message); },
  assert_equals(actual, expected, message) {
    if (actual instanceof ValueOf) { actual.step.value_of = actual.name; actual.step.expected = expected; }
    else if (actual instanceof Observed) {
      // list.py answers with the cookies it was sent as JSON: "{}" is none.
      if (actual.step.read.endsWith('/cookies/resources/list.py')) {
        if (expected !== '{}') throw new Error('list.py read expecting ' + expected);
        expected = '';
      }
      actual.step.expected = expected;
    } else if (actual !== expected) throw new Error('assert_equals: ' + message + ': ' + actual + ' vs ' + expected);
  },
  document: { body: { appendChild(frame) { frame.load(); } }, createElement: () => fakeFrame(),
              get cookie() { return read(page, false); }, set cookie(text) { steps.push({ set: asBytes(text), from: page, http: false }); } },
  window: { addEventListener() {}, removeEventListener() {} },
};
vm.runInNewContext(script, context);
// Helpers whose work needs a browser are replaced after the script has declared them: the
// tests call them by their global names.
context.cookieValue = (observed, name) => new ValueOf(observed, name);
context.probeAtPath = async path => ({ path, cookie: read(path, false) });
(async () => {
  const out = [];
  for (const { f, name } of context.tests) {
    steps = [];
    if (skip.includes(name)) continue;
    await f({ add_cleanup() {} });
    if (!steps.some(s => 'expected' in s || 'starts_with' in s)) throw new Error(name + ': no read was checked');
    out.push({ name, steps });
  }
  process.stdout.write(JSON.stringify({ page, tests: out }));
})().catch(e => { console.error(e); process.exit(1); });
"""
RECORDER = r"""
const vm = require('vm');
const scripts = JSONText.parse(require('fs').readFileSync(0, 'utf8'));
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
    scenarios = []
    for path, source in SCENARIOS:
        options = json.dumps({"path": path, "origin": ORIGIN, "skip": sorted(NOT_COOKIE_TESTS)})
        run = subprocess.run(["node", "-e", SCENARIO_RECORDER, options], capture_output=True, text=True,
                             input=open(os.path.join(root, path), encoding="utf-8").read())
        if run.returncode != 0:
            sys.exit(path + ": " + run.stderr)
        scenarios.append({"path": path, "source": source, **json.loads(run.stdout)})
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "wpt-vectors.json"), "w", encoding="utf-8") as f:
        json.dump({"made_by": "make_wpt_vectors.py", "files": files, "scenarios": scenarios}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(sum(len(t) for t in recorded), "tests from", len(files), "files;",
          sum(len(s["tests"]) for s in scenarios), "scenario tests from", len(scenarios), "files")

main()
