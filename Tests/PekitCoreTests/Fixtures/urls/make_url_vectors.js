// Generates the URL fixtures from node's URL (the WHATWG URL Standard, as ada implements it):
//   url-vectors.json     each input, against an optional base: every field, or failure;
//   setter-vectors.json  a URL, a setter (protocol, username, ..., hash) and a value: every field after;
//   host-vectors.json    url.domainToASCII and url.domainToUnicode of host names (IDNA, IPv4, IPv6).
// Where node 20 (ada 2.9) is older than the Standard, the Standard wins and the vector says so
// ("standard": why): `^` in a path is percent-encoded since whatwg/url 2024 (ada 2.9 leaves it);
// an opaque path's last space before ? or # is %20 since whatwg/url 2025 (ada 2.9 keeps it);
// CheckBidi (RFC 5893), which the Standard's domain to ASCII sets and ada 2.9 does not apply;
// and three setter rules ada 2.9 breaks (see setterStandard below).
// Run: node Tests/PekitCoreTests/Fixtures/urls/make_url_vectors.js
'use strict';
const fs = require('fs');
const path = require('path');
const url = require('url');
const cases = [
  ['http://h/a b/汉?q=汉 字#f g'], ['HTTP://User:Pa ss@EXAMPLE.com:80/./a/../b/%2e/c?x#y'], ['https://example.com:443/'],
  ['https://example.com:0443/'], ['http://example.com:65535/'], ['http://example.com:65536/'], ['http://example.com:8a/'],
  ['http://[2001:DB8:0:0::1]/'], ['http://[::1]:8080/p'], ['http://[::ffff:192.168.0.1]/'], ['http://[1:2:3:4:5:6:7:8]/'],
  ['http://[1::2::3]/'], ['http://[::1.2.3.4x]/'], ['http://[0:0:0:0:0:0:0:0]/'], ['http://[1:0:0:2:0:0:0:3]/'],
  ['http://0xC0A80001/'], ['http://3232235521/'], ['http://192.168.0.1/'], ['http://192.168.1/'], ['http://0300.0250.0.01/'],
  ['http://1.2.3.4.5/'], ['http://256.0.0.1/'], ['http://4294967296/'], ['http://0x100000000/'], ['http://1.2.3.09/'],
  ['http://example.com./'], ['http://a.b.c.1./'], ['http://xn--fsqu00a.xn--fiqs8s/'], ['http://xn--a.com/'], ['http://EXAMPLE.COM/'],
  ['http://ex%41mple.com/'], ['http://%2541\u00e9.com/'], ['http://x%2541.com/'], ['http://%C3%A9xample.com/'], ['http://exa mple.com/'], ['http://exa<mple.com/'], ['http://%25/'], ['http://a%2F/'],
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
  // IDNA: UTS #46 non-transitional, no hyphen or STD3 rules, Bidi and joiner rules on.
  ['http://www.例子.中国/'], ['https://Faß.de/'], ['http://☃.net/'], ['http://😀.com/'], ['http://ＥＸＡＭＰＬＥ.ｃｏｍ/'],
  ['http://a。b．c｡d/'], ['http://-x.com/'], ['http://x-.com/'], ['http://ab--c.com/'], ['http://a_b.com/'],
  ['http://a\u200Db.com/'], ['http://\u0915\u094D\u200D\u0937.in/'], ['http://\u0627\u0644\u0639\u0631\u0628\u064A\u0629.com/'],
  ['http://a\u05D0.com/'], ['http://xn--a.com/'], ['http://xn--ls8h.la/'], ['http://XN--FSQU00A.xn--fiqs8s/'], ['http://xn--/'],
  ['http://xn--zca.de/'], ['http://%E4%BE%8B%E5%AD%90.com/'], ['http://%E4%BE%8B%E5%AD%90%2Ecom/'], ['http://\u0301a.com/'],
  ['http://a\uFFFFb/'], ['http://\u00AD.com/'], ['http://a\u00ADb.com/'], ['http://ﬀ.com/'], ['http://İ.com/'], ['http://Ⅻ.com/'],
  ['http://①.com/'], ['http://١٢٣.com/'], ['http://例子.中国:8080/路径?查询#片段'], ['ws://Ünïcödé.example/'], ['foo://例子.中国/'],
  ['http://\uD83D\uDE00\u200D.com/'], ['http://a\u3002/'], ['http://\u3002/'], ['http://xn--a-ecp.ru/'], ['http://xn--tda.com/'],
  ['http://h/^r^/s?^#^'], ['foo://h/^x'], ['foo:/^x'], ['foo:^x'],
];
// Random inputs from the pieces parsers disagree on (a fixed seed; names that would need IDNA are left out).
let seed = 20261130;
const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const atoms = ['http:', 'https:', 'file:', 'foo:', 'ws:', '//', '/', '\\', 'h', 'H', 'x.y', '1', '0x7f', '.', '..', '%2e', '@', ':',
               '[', ']', '::1', '?', '#', ' ', '%', '%41', '汉', 'a', '8080', '\t', 'C:', '|', '^', '{', '"', "'",
               'ß', 'Ｅ', '。', '\u200D', 'ا', 'xn--', '-', '☃', 'xn--zca', '%C3%9F', 'é'];
const bases = [undefined, 'http://h/a/b?x#y', 'file:///C:/a/b', 'foo://h/a'];
for (let i = 0; i < 400; i++) {
  let input = '';
  for (let j = 0, n = 1 + rand(10); j < n; j++) input += atoms[rand(atoms.length)];
  cases.push([input, bases[rand(bases.length)]]);
}
const fieldNames = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
// Every field, with the Standard's corrections to ada 2.9.
function fields(url) {
  const f = {};
  for (const k of fieldNames) f[k] = url[k];
  const opaque = !f.href.startsWith(f.protocol + '//') && !f.pathname.startsWith('/');
  if (!opaque && f.pathname.includes('^')) {
    const tail = f.pathname + f.search + f.hash;
    f.pathname = f.pathname.replaceAll('^', '%5E');
    f.href = f.href.slice(0, f.href.length - tail.length) + f.pathname + f.search + f.hash;
    f.standard = 'the path percent-encode set has ^ (whatwg/url 2024); node 20 / ada 2.9 leaves it';
  }
  const after = f.href[f.protocol.length + f.pathname.length];
  if (opaque && f.pathname.endsWith(' ') && (after === '?' || after === '#')) {
    const rest = f.href.slice(f.protocol.length + f.pathname.length);
    f.pathname = f.pathname.slice(0, -1) + '%20';
    f.href = f.protocol + f.pathname + rest;
    f.standard = 'an opaque path\'s space before ? or # is %20 (whatwg/url 2025, WPT urltestdata); node 20 / ada 2.9 keeps it';
  }
  return f;
}
// Labels that break the Bidi rule: an LTR label with an R character (rule 5), a label starting
// with an Arabic-Indic digit (AN; rule 1). The Standard's domain to ASCII fails them.
const bidiFailures = ['a\u05D0', '\u0661\u0662\u0663'];
const breaksBidi = (host) => bidiFailures.some((label) => host.split(/[.\u3002\uFF0E\uFF61]/).includes(label));
const bidiNote = 'CheckBidi is true in the URL Standard (RFC 5893 rules 1 and 5); ada 2.9 does not apply it';
const vectors = cases.map(([input, base]) => {
  let url;
  try { url = base === undefined ? new URL(input) : new URL(input, base); } catch (e) { return { input, base: base ?? null, failure: true }; }
  if (breaksBidi(url.hostname) || bidiFailures.some((label) => input.includes('//' + label + '.'))) {
    return { input, base: base ?? null, failure: true, standard: bidiNote };
  }
  return { input, base: base ?? null, ...fields(url) };
});
fs.writeFileSync(path.join(__dirname, 'url-vectors.json'), JSON.stringify({ node: process.version, ada: process.versions.ada, vectors }, null, 1) + '\n');
console.log(vectors.length, 'URL vectors from node', process.version);

// Setters: each component from several URLs, with values that cross each rule.
const setterURLs = ['http://user:pw@example.com:8080/a/b?q=1#f', 'https://example.com/', 'foo://h/p?q#f', 'foo:opaque path ?q#f',
                    'file:///C:/dir/f', 'file://host/share', 'mailto:a@b', 'http://[::1]/', 'sc:///', 'data:text/plain,x'];
const setterValues = {
  protocol: ['https', 'HTTP:', 'ftp', 'foo', 'file', 'ws:x', '1abc', '', 'a b', 'ß', 'https:extra'],
  username: ['me', '', 'a b:c@d', 'ß', '%41'],
  password: ['secret', '', 'a b:c@d/', '汉'],
  host: ['example.org', 'example.org:81', 'h:0', 'h:65536', ':80', '', '例子.中国', '[::2]:9', 'a/b', 'a?b', 'a#b', 'a b', 'h:8a', '0x7f.1', 'xn--a', 'a@b'],
  hostname: ['example.org', 'example.org:81', '', '例子.中国', '[::2]', 'a/b', '0x7f.1', 'Faß.de', 'a\u200Db'],
  port: ['81', '80', '443', '', '8a', 'a8', '65535', '65536', '0', '00081', ' 81'],
  pathname: ['/x/y', 'x', '', '/a b/汉', '/a?b#c', '/../x', '\\a\\b', '/%2e/x', '/^'],
  search: ['?a=b', 'a=b', '', '?', '?a b#c', '?汉', "?'"],
  hash: ['#x', 'x', '', '#', '#a b', '#汉`'],
};
// Where ada 2.9's setters differ from the Standard's basic URL parser with a state override:
// the port state fails on a first code point that is not a digit (the port is kept; ada removes
// it); the host state fails on ":" with nothing before it (ada makes an empty host with that
// port); and after a host the port state runs for non-special URLs too (ada drops the port of
// `sc:///`.host = "h:81"). Returns the Standard's URL, or null where ada agrees.
function setterStandard(href, component, value) {
  const v = value.replace(/[\t\n\r]/g, '');
  if (component === 'port' && v !== '' && !/^[0-9]/.test(v)) return { url: new URL(href), why: 'a port setter value must start with a digit; ada 2.9 removes the port' };
  if (component === 'host' && v.startsWith(':')) return { url: new URL(href), why: 'the host state fails on ":" with an empty host; ada 2.9 sets an empty host' };
  const port = /^[^:]*(?:\[[^\]]*\])?[^:]*:([0-9]+)/.exec(v);
  if (component === 'host' && port) {
    const url = new URL(href);
    url.host = value;
    if (url.port === '' && !['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:'].includes(url.protocol) && url.hostname !== new URL(href).hostname) {
      url.port = port[1];
      return { url, why: 'after the host, the port state sets the port (non-special URLs too); ada 2.9 drops it when the host was empty' };
    }
  }
  return null;
}
const setters = [];
for (const href of setterURLs) {
  for (const [component, values] of Object.entries(setterValues)) {
    for (const value of values) {
      const url = new URL(href);
      url[component] = value;
      const standard = setterStandard(href, component, value);
      if (standard && fields(standard.url).href !== fields(url).href) {
        setters.push({ url: href, component, value, ...fields(standard.url), standard: standard.why });
      } else {
        setters.push({ url: href, component, value, ...fields(url) });
      }
    }
  }
}
fs.writeFileSync(path.join(__dirname, 'setter-vectors.json'), JSON.stringify({ node: process.version, ada: process.versions.ada, vectors: setters }, null, 1) + '\n');
console.log(setters.length, 'setter vectors');

// Hosts: url.domainToASCII / domainToUnicode ('' is node's failure).
const hostInputs = ['例子.中国', 'www.例子.中国', 'xn--fsqu00a.xn--fiqs8s', 'Faß.de', 'xn--fa-hia.de', '☃.net', 'EXAMPLE.com', 'ＥＸＡＭＰＬＥ.ｃｏｍ',
                    'a。b', '-x.com', 'ab--c.com', 'a_b.com', 'a\u200Db.com', 'xn--a.com', 'xn--', '%E4%BE%8B.com', '0x7F.1', '3232235521',
                    '[2001:DB8:0:0::1]', '[::1', '1.2.3.4.5', '', ' ', 'a b', 'a%20b', '\u0627\u0644\u0639\u0631\u0628\u064A\u0629.com', 'a\u05D0.com',
                    'İ.com', 'ﬀ.com', '\u00AD', 'xn--ls8h.la', 'XN--ZCA', 'i\u0307.com', 'ǅ.com', 'a..b', 'a.b.'];
const hosts = hostInputs.map((input) => breaksBidi(input)
  ? { input, ascii: '', unicode: '', standard: bidiNote }
  : { input, ascii: url.domainToASCII(input), unicode: url.domainToUnicode(input) });
fs.writeFileSync(path.join(__dirname, 'host-vectors.json'), JSON.stringify({ node: process.version, ada: process.versions.ada, vectors: hosts }, null, 1) + '\n');
console.log(hosts.length, 'host vectors');
