// Runs qs.parse, URLSearchParams and querystring.parse on [{model, query, options}] from standard
// input; prints the canonical results (see make_server_vectors.py).
'use strict';
const qs = require('qs');
const querystring = require('querystring');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));

function canon(v) {
    if (v === null) return null;
    if (Array.isArray(v)) {
        // qs arrays are compacted; a hole would be an error in the fixture.
        const out = [];
        for (let i = 0; i < v.length; i++) out.push(i in v ? canon(v[i]) : { $hole: true });
        return out;
    }
    if (typeof v === 'object') return { $map: Object.keys(v).map(k => [k, canon(v[k])]) };
    return v;
}
function grouped(pairs) {
    const names = [], values = new Map();
    for (const [k, v] of pairs) {
        if (!values.has(k)) { names.push(k); values.set(k, []); }
        values.get(k).push(v);
    }
    return { $map: names.map(k => [k, values.get(k)]) };
}
function qsOptions(o) {
    const out = Object.assign({}, o);
    if (o.delimiter && typeof o.delimiter === 'object') out.delimiter = new RegExp(o.delimiter.pattern);
    if (o.parameterLimit === 'inf') out.parameterLimit = Infinity;
    return out;
}
const results = cases.map(c => {
    try {
        switch (c.model) {
        case 'qs': return canon(qs.parse(c.query, qsOptions(c.options)));
        // The standard UTF-8-encodes the input before percent-decoding it. node's URLSearchParams
        // falls back to a byte decoder that cuts a raw non-ASCII character to one byte when the same
        // string holds an escape that is not UTF-8 ('\u5c0f%FF' reads as '\x0f\ufffd'); escaping
        // those characters first gives the standard's bytes, so that is what is recorded (README).
        case 'whatwg': return grouped([...new URLSearchParams('?' + c.query.replace(/[^\x00-\x7f]+/gu, encodeURIComponent))]);
        case 'node-querystring': {
            const o = c.options;
            const obj = querystring.parse(c.query, o.sep, o.eq, 'maxKeys' in o ? { maxKeys: o.maxKeys } : undefined);
            return { $map: Object.keys(obj).map(k => [k, Array.isArray(obj[k]) ? obj[k] : [obj[k]]]) };
        }
        }
        throw new Error('unknown model ' + c.model);
    } catch (e) {
        return { $error: e.constructor.name, message: e.message };
    }
});
process.stdout.write(JSON.stringify(results));
