#!/usr/bin/env python3
"""Generates crypto-vectors.json: digests and HMACs (hashlib, hmac), base64/base64url/hex
(base64, binascii) and time formats (datetime, email.utils) from Python 3.11's standard library,
on fixed and seeded-random inputs, plus the RFC 4231 HMAC-SHA2 and RFC 4648 base64 examples.

Run: python3 Tests/PekitCryptoTests/Fixtures/make_crypto_vectors.py
"""
import base64, datetime, email.utils, hashlib, hmac, json, os, random
HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(4231)
def blob(n): return bytes(rng.randrange(256) for _ in range(n))
inputs = [b"", b"abc", b"a" * 1000, b"\x00\xff\x80", "汉字".encode(), blob(1), blob(63), blob(64), blob(65), blob(200), blob(4097)]
out = {"digests": [], "hmacs": [], "base64": [], "times": [], "parse": []}
for data in inputs:
    for alg in ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"]:
        out["digests"].append({"alg": alg, "data": data.hex(), "digest": hashlib.new(alg, data).hexdigest()})
# RFC 4231 section 4: test cases 1-4, 6 and 7 (5 is truncated output), and random keys.
rfc4231 = [(b"\x0b" * 20, b"Hi There"), (b"Jefe", b"what do ya want for nothing?"), (b"\xaa" * 20, b"\xdd" * 50),
           (bytes(range(1, 26)), b"\xcd" * 50), (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First"),
           (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.")]
for key, data in rfc4231 + [(blob(rng.randrange(0, 200)), blob(rng.randrange(0, 300))) for _ in range(10)] + [(b"", b"")]:
    for alg in ["md5", "sha1", "sha256", "sha384", "sha512"]:
        out["hmacs"].append({"alg": alg, "key": key.hex(), "data": data.hex(), "mac": hmac.new(key, data, alg).hexdigest()})
for data in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar"] + [blob(n) for n in range(0, 40)] + [b"\xfb\xff\xbf"]:
    out["base64"].append({"data": data.hex(), "base64": base64.b64encode(data).decode(),
                          "base64url": base64.urlsafe_b64encode(data).decode().rstrip("=")})
for t in [0, 1, 59, 784111777, 951782400, 1700000000, 1764504000, 253402300799, -1, -86400, -62135596800] + [rng.randrange(0, 4102444800) for _ in range(30)]:
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    out["times"].append({"t": t, "iso8601": d.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0"), "iso8601-basic": d.strftime("%Y%m%dT%H%M%SZ").rjust(16, "0"),
                         "http": email.utils.format_datetime(d, usegmt=True) if t >= 0 else None})
for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Thu, 01 Jan 1970 00:00:00 GMT",
             "Tue, 29 Feb 2028 23:59:59 GMT", "Wed Feb 29 12:00:00 2012"]:
    out["parse"].append({"text": text, "format": "http", "t": int(email.utils.parsedate_to_datetime(text).timestamp())})
for text in ["2026-11-30T12:00:00Z", "2026-11-30T12:00:00+01:00", "2026-11-30T12:00:00-0530", "1994-11-06T08:49:37.250Z", "2000-02-29T00:00:00z"]:
    out["parse"].append({"text": text, "format": "iso8601", "t": datetime.datetime.fromisoformat(text.replace("z", "Z")).timestamp()})
for text in ["20261130T120000Z", "20261130T120000+0200", "20261130T120000-0530", "19941106T084937+0000"]:
    out["parse"].append({"text": text, "format": "iso8601-basic", "t": datetime.datetime.strptime(text, "%Y%m%dT%H%M%S%z").timestamp()})
with open(os.path.join(HERE, "crypto-vectors.json"), "w") as f:
    json.dump(out, f, indent=0)
print({k: len(v) for k, v in out.items()})
