#!/usr/bin/env node
// Writes uri-decoding-vectors.json: node's own decodeURIComponent (ECMA-262 Decode) on random
// strings built from escapes of valid and invalid UTF-8 (overlong, surrogate, truncated, stray
// continuation), broken escapes, plus signs, literal non-ASCII and plain runs long and short,
// with and without qs's `+`-to-space first. `output` is the result, or null where node throws
// URIError. Seeded, so the file is the same on every run: `node make_vectors.js > uri-decoding-vectors.json`.
"use strict";
let seed = 0x5eed1234;
function random() {  // xorshift32
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const valid = [
  "%41", "%7e", "%7E", "%20", "%25", "%2B", "%2b", "%00", "%7F",
  "%C3%A9", "%c3%a9", "%E6%BC%A2", "%E5%AD%97", "%F0%9F%98%80", "%EF%BF%BD", "%E0%A0%80", "%F4%8F%BF%BF", "%ED%9F%BF",
  "+", "++", "a", "b", "xyz", "abcdefgh", "abcdefghijklmnop", "0123456789abcdefghij", "a+b", "-._~",
  "漢", "é", "😀", "[", "]", "=", "&",
];
// Each makes the whole string throw; one in twelve atoms is one of these.
const invalid = [
  "%C0%80", "%C1%BF", "%E0%80%80", "%ED%A0%80", "%F0%80%80%80", "%F4%90%80%80", "%F5%80%80%80", "%FF",
  "%E6", "%E6%BC", "%BC", "%80", "%C3", "%C3%41", "%E6%41%A2", "%F0%9F%98", "%E6漢",
  "%", "%4", "%G1", "%1G", "%%", "%zz",
];
const vectors = [];
for (let n = 0; n < 4000; n++) {
  let s = "";
  const parts = 1 + Math.floor(random() * 10);
  for (let k = 0; k < parts; k++) {
    const atoms = random() < 1 / 12 ? invalid : valid;
    s += atoms[Math.floor(random() * atoms.length)];
  }
  for (const plus of [false, true]) {
    let output = null;
    try { output = decodeURIComponent(plus ? s.replace(/\+/g, " ") : s); } catch (e) { if (!(e instanceof URIError)) throw e; }
    vectors.push({ input: s, plus, output });
  }
}
process.stdout.write(JSON.stringify({ source: "node " + process.version + " decodeURIComponent", vectors }, null, 0) + "\n");
