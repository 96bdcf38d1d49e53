#!/usr/bin/env python3
"""Writes number-vectors.json: how each language a policy speaks writes a number into a query.
python: str() of the float (what urllib.parse.urlencode writes, as requests sends it), by this
Python; objc: C's "%.16g" (NSNumber's description of a double on Apple's platforms, as Apple
documents description(withLocale:); what AFNetworking and Alamofire write), by Python's % operator,
which rounds exactly as C's printf does; php: what http_build_query writes (precision 14), by
Debian's php-cli (apt-get install php-cli); javascript: String(x) (what qs, jQuery.param and querystring write), by Debian's nodejs.
Each double is carried as its 64 bits in hex, so nothing is lost on the way. "integers" are JSON
integer texts, some past 64 bits, as json.loads then str() and JSONText.parse then String() write them.
Run: python3 Tests/PekitCoreTests/Fixtures/make_number_vectors.py"""
import json, os, random, struct, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
fixed = [0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 3.0, 100.0, 1e15, 1e16, 1e20, 1e21, 1e22, 123456789012345680000.0,
         12345678901234567890.0, 1.2345678901234567e19, 0.000001, 0.0000001, 1e-5, 0.0001, 1.5e-7, 2.5e-8,
         1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 9007199254740992.0, 9007199254740993.0,
         0.30000000000000004, 123.456, -987654.321, 1e300, 4.35, 1234567.0, 999999999999999.9, 9.999999999999999e20]
rng = random.Random(42)
values = fixed + [rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30) for _ in range(300)] + [float(rng.randint(-10**18, 10**18)) for _ in range(40)]
bits = [struct.pack(">d", v).hex() for v in values]
script = ("const b = JSONText.parse(require('fs').readFileSync(0, 'utf8'));"
          "const out = b.map(h => { const buf = Buffer.from(h, 'hex'); return String(buf.readDoubleBE(0)); });"
          "process.stdout.write(JSON.stringify(out));")
js = json.loads(subprocess.run(["node", "-e", script], input=json.dumps(bits), capture_output=True, text=True, check=True).stdout)
node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
ints = ["0", "-1", "9007199254740993", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "12345678901234567890", "18446744073709551615", "18446744073709551616",
        "-99999999999999999999999", "100000000000000000000", "1000000000000000000000",
        "123456789012345678901234567890123456789"] + [str(rng.randint(-10**40, 10**40)) for _ in range(30)]
js_ints = json.loads(subprocess.run(["node", "-e", "const t = JSONText.parse(require('fs').readFileSync(0, 'utf8'));"
                                     "process.stdout.write(JSON.stringify(t.map(s => String(JSONText.parse(s)))));"],
                                    input=json.dumps(ints), capture_output=True, text=True, check=True).stdout)
php_script = ('$b = json_decode(stream_get_contents(STDIN), true); $out = [];'
              'foreach ($b as $h) { $out[] = urldecode(substr(http_build_query(["x" => unpack("E", hex2bin($h))[1]]), 2)); }'
              'echo json_encode($out);')
def php(items, script):
    return json.loads(subprocess.run(["php", "-r", script], input=json.dumps(items), capture_output=True, text=True, check=True).stdout)
php_doubles = php(bits, php_script)
php_ints = php(ints, '$t = json_decode(stream_get_contents(STDIN), true); $out = [];'
                     'foreach ($t as $s) { $out[] = urldecode(substr(http_build_query(["x" => json_decode($s)]), 2)); }'
                     'echo json_encode($out);')
php_version = subprocess.run(["php", "-r", "echo PHP_VERSION;"], capture_output=True, text=True, check=True).stdout
vectors = [{"bits": h, "python": str(v), "objc": "%.16g" % v, "php": p, "javascript": j} for h, v, p, j in zip(bits, values, php_doubles, js)]
integers = [{"json": t, "python": str(json.loads(t)), "php": p, "javascript": j} for t, p, j in zip(ints, php_ints, js_ints)]
with open(os.path.join(here, "number-vectors.json"), "w") as f:
    f.write('{"python": %s, "node": %s, "php": %s, "vectors": [\n' % (json.dumps(sys.version.split()[0]), json.dumps(node), json.dumps(php_version)))
    f.write(",\n".join(json.dumps(v) for v in vectors) + "\n],\n\"integers\": [\n")
    f.write(",\n".join(json.dumps(v) for v in integers) + "\n]}\n")
