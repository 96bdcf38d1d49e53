// node's URL (ada) on every line of a file, reading each href (median of 5 runs, ms).
'use strict';
const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
let failures = 0, length = 0;
function run() {
  failures = 0; length = 0;
  for (const s of lines) { try { length += new URL(s).href.length; } catch (e) { failures++; } }
}
run();
const t = [];
for (let i = 0; i < 5; i++) { const s = process.hrtime.bigint(); run(); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
t.sort((a, b) => a - b);
console.log(JSON.stringify({ impl: 'node', ms: t[2], failures, count: lines.length, ada: process.versions.ada }));
