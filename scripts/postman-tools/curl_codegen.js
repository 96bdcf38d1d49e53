// Prints, as JSON, the curl command Postman's own code generator (postman-code-generators,
// codegens/curl) writes for each request of each collection named on the command line, with
// the generator's default options (what the Postman app's Code pane shows), built as
// postman-code-generators' own newman tests build them: `new Request(item.request)` of each
// top-level item (test/codegen/newman/newmanTestUtil.js).
// Run by scripts/postman-fixtures, which sets NODE_PATH to the fetched sources.
// Usage: node curl_codegen.js CODEGEN_DIR COLLECTION.json...
'use strict';
const fs = require('fs');
const path = require('path');
const { Request } = require('postman-collection/lib/collection/request');
const convert = require(path.resolve(process.argv[2], 'codegens/curl')).convert;

const out = {};
for (const file of process.argv.slice(3)) {
  const collection = JSON.parse(fs.readFileSync(file, 'utf8'));
  out[path.basename(file)] = collection.item.map((item) => {
    let snippet;
    convert(new Request(item.request), {}, (error, text) => {
      if (error) { throw error; }
      snippet = text;
    });
    return { name: item.name, curl: snippet };
  });
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
