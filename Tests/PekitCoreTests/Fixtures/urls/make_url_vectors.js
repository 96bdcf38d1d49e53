// Generates url-vectors.json: what node's URL (the WHATWG URL Standard, as ada implements it)
// makes of each input, against an optional base: every field, or failure.
// Run: node Tests/PekitCoreTests/Fixtures/urls/make_url_vectors.js
'use strict';
const fs = require('fs');
const path = require('path');
const cases = [
  ['http://h/a b/汉?q=汉 字#f g'], ['HTTP://User:Pa ss@EXAMPLE.com:80/./a/../b/%2e/c?x#y'], ['https://example.com:443/'],
  ['https://example.com:0443/'], ['http://example.com:65535/'], ['http://example.com:65536/'], ['http://example.com:8a/'],
  ['http://[2001:DB8:0:0::1]/'], ['http://[::1]:8080/p'], ['http://[::ffff:192.168.0.1]/'], ['http://[1:2:3:4:5:6:7:8]/'],
  ['http://[1::2::3]/'], ['http://[::1.2.3.4x]/'], ['http://[0:0:0:0:0:0:0:0]/'], ['http://[1:0:0:2:0:0:0:3]/'],
  ['http://0xC0A80001/'], ['http://3232235521/'], ['http://192.168.0.1/'], ['http://192.168.1/'], ['http://0300.0250.0.01/'],
  ['http://1.2.3.4.5/'], ['http://256.0.0.1/'], ['http://4294967296/'], ['http://0x100000000/'], ['http://1.2.3.09/'],
  ['http://example.com./'], ['http://a.b.c.1./'], ['http://xn--fsqu00a.xn--fiqs8s/'], ['http://xn--a.com/'], ['http://EXAMPLE.COM/'],
  ['http://ex%41mple.com/'], ['http://exa mple.com/'], ['http://exa<mple.com/'], ['http://%25/'], ['http://a%2F/'],
  ['http://user@/'], ['http://@h/'], ['http://a:b@c:d@h/'], ['http://user:@h/'], ['http://:pass@h/'], ['http://a@b@c/'],
  ['http:\\\\h\\a\\b'], ['http:/h/p'], ['http:h/p'], ['https:///h/p'], ['  http://h/p  '], ['http://h/a\tb\nc'],
  ['http://h/%7Ex/~y/{z}/`q`/|p|/^r^'], ['http://h/?a=\'b\'&c="d"&e=<f>&g=`h`'], ['http://h/#a"b<c>d`e f'],
  ['http://h/..'], ['http://h/a/..'], ['http://h/a/.%2E/b'], ['http://h/a/%2e%2E/b'], ['http://h/a/./'], ['http://h/a/.'],
  ['http://h/a/b?c/../d'], ['http://h?q'], ['http://h#f'], ['http://h:/'], ['http://h:0/'], ['ws://h:80/'], ['wss://h:443/x'],
  ['ftp://h:21/f'], ['ftp://user:pw@h/f;type=a'],
  ['file:///C:/dir/file'], ['file:///C|/dir'], ['file://localhost/etc/passwd'], ['file://host/share/f'], ['file:/etc/x'],
  ['file:c:\\foo\\bar'], ['file:///..'], ['file:///C:/..'], ['file://LOCALHOST/x'],
  ['mailto:someone@example.com?subject=hi there'], ['data:text/plain,hello world'], ['javascript:alert(1)'],
  ['urn:isbn:0451450523'], ['foo://bar/baz qux?a b#c d'], ['foo://[::1]/'], ['foo://ho st/'], ['foo://h%20st/'],
  ['foo:/a/../b'], ['foo:/.//x'], ['non-spec:/.//'], ['sc://ñ/'], ['sc://%/'], ['sc:\\../'], ['blob:https://example.com/uuid'],
  ['blob:ftp://h/x'], ['a+b-c.d://x/'], ['1http://x/'], ['http://ex.com/p?q=%zz'], ['http://h/%zz'], [''], ['//h/p'], ['/p'],
  ['?q=1', 'http://h/a/b?x#y'], ['#f', 'http://h/a/b?x#y'], ['c', 'http://h/a/b?x#y'], ['../c', 'http://h/a/b/d'],
  ['../../../../c', 'http://h/a/b'], ['//other/p', 'https://h/a'], ['/abs', 'http://h/a/b'], ['http:rel', 'http://h/a/b'],
  ['https:rel', 'http://h/a/b'], ['./', 'http://h/a/b'], ['', 'http://h/a/b?x#y'], ['\\x', 'http://h/a/b'],
  ['d', 'file:///C:/a/b'], ['/d', 'file:///C:/a/b'], ['C|/x', 'file:///a/b'], ['x', 'mailto:a@b'], ['#f', 'mailto:a@b'],
  ['http://h/€uro?€=€#€'], ['http://h/😀'], ['http://h/\u0000x'], ['http://h/\u007f'], ['http://h/a%2Fb'],
];
// Random inputs from the pieces parsers disagree on (a fixed seed; names that would need IDNA are left out).
let seed = 20261130;
const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const atoms = ['http:', 'https:', 'file:', 'foo:', 'ws:', '//', '/', '\\', 'h', 'H', 'x.y', '1', '0x7f', '.', '..', '%2e', '@', ':',
               '[', ']', '::1', '?', '#', ' ', '%', '%41', '汉', 'a', '8080', '\t', 'C:', '|', '^', '{', '"', "'"];
const bases = [undefined, 'http://h/a/b?x#y', 'file:///C:/a/b', 'foo://h/a'];
for (let i = 0; i < 400; i++) {
  let input = '';
  for (let j = 0, n = 1 + rand(10); j < n; j++) input += atoms[rand(atoms.length)];
  cases.push([input, bases[rand(bases.length)]]);
}
const out = cases.map(([input, base]) => {
  let url;
  try { url = base === undefined ? new URL(input) : new URL(input, base); } catch (e) { return { input, base: base ?? null, failure: true }; }
  if (/xn--/.test(url.hostname) && !/xn--/.test(input)) return null;
  const f = {};
  for (const k of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']) f[k] = url[k];
  return { input, base: base ?? null, ...f };
});
const vectors = out.filter((v) => v !== null);
fs.writeFileSync(path.join(__dirname, 'url-vectors.json'), JSON.stringify({ node: process.version, vectors }, null, 1) + '\n');
console.log(vectors.length, 'vectors from node', process.version);
