// qs.stringify and qs.parse on the benchmark document (NODE_PATH=/usr/share/nodejs).
const qs = require('qs');
const fs = require('fs');
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// Three calls first, then the median of `runs`, as every row of the section.
function median(f, runs) {
  f(); f(); f(); const t = [];
  for (let i = 0; i < runs; i++) { const s = process.hrtime.bigint(); f(); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
  t.sort((a, b) => a - b); return t[Math.floor(runs / 2)];
}
let out = '';
const encodeMs = median(() => { out = qs.stringify(doc, { arrayFormat: 'indices' }); }, 7);
const parseMs = median(() => qs.parse(out, { parameterLimit: Infinity, arrayLimit: 1000, depth: 10 }), 7);
console.log(JSON.stringify({ impl: 'qs', encode_ms: encodeMs, parse_ms: parseMs, bytes: out.length }));
