// Serves on the port in argv[2] with node's http module (what Express runs on): answers with the
// request's header fields as req.headers has them (make_header_vectors.py).
'use strict';
require('http').createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ $map: Object.keys(req.headers).map(k => [k, req.headers[k]]) }));
}).listen(Number(process.argv[2]), '127.0.0.1');
