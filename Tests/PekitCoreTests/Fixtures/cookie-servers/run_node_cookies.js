// Runs the `cookie` package's parse (0.5, what Express's cookie-parser calls) on [{header_hex}]
// from standard input, the header's bytes read as node's HTTP server reads them (latin1); prints
// the canonical results (see make_cookie_vectors.py).
'use strict';
const cookie = require('cookie');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(c => {
    const header = Buffer.from(c.header_hex, 'hex').toString('latin1');
    try {
        const parsed = cookie.parse(header);
        return { $map: Object.keys(parsed).map(k => [k, parsed[k]]) };
    } catch (e) {
        return { $error: e.constructor.name, message: e.message };
    }
});
process.stdout.write(JSON.stringify(out));
