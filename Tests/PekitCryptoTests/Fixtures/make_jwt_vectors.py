#!/usr/bin/env python3
"""Generates jwt-vectors.json with PyJWT (pip install PyJWT cryptography): tokens PyJWT encodes
(HS*, RS*: deterministic, so pekit must write the same bytes), ES256/ES384 tokens to verify, the
keys, and tokens PyJWT refuses with the check that fails; plus RFC 7515 appendix A.1.

Run: python3 Tests/PekitCryptoTests/Fixtures/make_jwt_vectors.py
"""
import base64, hashlib, hmac, json, os, warnings
import jwt
warnings.filterwarnings("ignore")
from cryptography.hazmat.primitives.asymmetric import rsa, ec
from cryptography.hazmat.primitives import serialization

HERE = os.path.dirname(os.path.abspath(__file__))
def pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
def pub(key):
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
p256 = ec.generate_private_key(ec.SECP256R1())
p384 = ec.generate_private_key(ec.SECP384R1())
keys = {"secret": "your-256-bit-secret", "rsa_private": pem(rsa_key), "rsa_public": pub(rsa_key),
        "p256_private": pem(p256), "p256_public": pub(p256), "p384_private": pem(p384), "p384_public": pub(p384)}
NOW = 1764504000
claims_list = [
    {"sub": "1234567890", "name": "John Doe", "iat": 1516239022},
    {"name": "小A", "emoji": "😀", "ctl": "tab\there\b\f\x7f", "n": 1.5, "ok": True, "none": None, "list": [1, "two", {"x": 3}]},
    {"iss": "pekit", "aud": ["api", "web"], "exp": NOW + 3600, "nbf": NOW - 10, "iat": NOW - 10},
]
encoded = []
for claims in claims_list:
    for alg, key in [("HS256", keys["secret"]), ("HS384", keys["secret"]), ("HS512", keys["secret"]),
                     ("RS256", keys["rsa_private"]), ("RS384", keys["rsa_private"]), ("RS512", keys["rsa_private"])]:
        encoded.append({"alg": alg, "claims": claims, "header": None, "token": jwt.encode(claims, key, algorithm=alg)})
encoded.append({"alg": "HS256", "claims": claims_list[0], "header": {"kid": "k1", "cty": "JWT"},
                "token": jwt.encode(claims_list[0], keys["secret"], algorithm="HS256", headers={"kid": "k1", "cty": "JWT"})})
verify = []
for alg, priv, public in [("ES256", "p256_private", "p256_public"), ("ES384", "p384_private", "p384_public"),
                          ("RS256", "rsa_private", "rsa_public"), ("HS512", "secret", "secret")]:
    token = jwt.encode(claims_list[2], keys[priv], algorithm=alg)
    verify.append({"token": token, "key": keys[public], "options": {"audience": "api", "issuer": "pekit"}, "claims": claims_list[2]})
# Tokens PyJWT refuses, and the check that fails.
def refused(token, key, options, check):
    try:
        jwt.decode(token, key, algorithms=options.pop("algs", ["HS256", "RS256", "ES256"]), leeway=options.get("leeway", 0),
                   audience=options.get("audience"), issuer=options.get("issuer"), options={"verify_exp": True})
        raise SystemExit("PyJWT accepted a token it should refuse: " + check)
    except jwt.exceptions.PyJWTError as e:
        return {"token": token, "check": check, "pyjwt": type(e).__name__}
def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
_h, _p = b64(b'{"alg":"HS256","typ":"JWT"}'), b64(b'{"admin":true}')
CONFUSED = f"{_h}.{_p}." + b64(hmac.new(keys["rsa_public"].encode(), f"{_h}.{_p}".encode(), hashlib.sha256).digest())
bad = [
    {**refused(jwt.encode({"exp": 1000}, keys["secret"]), keys["secret"], {}, "exp"), "key": keys["secret"]},
    {**refused(jwt.encode({"nbf": 4102444800}, keys["secret"]), keys["secret"], {}, "nbf"), "key": keys["secret"]},
    {**refused(jwt.encode({"aud": "web"}, keys["secret"]), keys["secret"], {"audience": "api"}, "aud"), "key": keys["secret"], "options": {"audience": "api"}},
    {**refused(jwt.encode({"aud": "web"}, keys["secret"]), keys["secret"], {}, "aud"), "key": keys["secret"]},
    {**refused(jwt.encode({"iss": "evil"}, keys["secret"]), keys["secret"], {"issuer": "pekit"}, "iss"), "key": keys["secret"], "options": {"issuer": "pekit"}},
    # RFC 7519 §4.1.3: each audience a string; a list with another value is not "me" too.
    {**refused(jwt.encode({"aud": [1, "me"]}, keys["secret"]), keys["secret"], {"audience": "me"}, "aud"), "key": keys["secret"], "options": {"audience": "me"}},
    {**refused(jwt.encode({"aud": 5}, keys["secret"]), keys["secret"], {"audience": "me"}, "aud"), "key": keys["secret"], "options": {"audience": "me"}},
    {**refused(jwt.encode({"a": 1}, "another secret"), keys["secret"], {}, "signature"), "key": keys["secret"]},
    {**refused(jwt.encode({"a": 1}, None, algorithm="none"), keys["secret"], {}, "alg"), "key": keys["secret"]},
    # The classic confusion: an HS256 token whose HMAC secret is the server's RSA public key.
    {**refused(CONFUSED, keys["rsa_public"], {"algs": ["HS256", "RS256"]}, "key"), "key": keys["rsa_public"]},
]
for b in bad:
    b.setdefault("options", {})
rfc7515 = {"token": "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
           "key_base64url": "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow", "now": 1300819370}
with open(os.path.join(HERE, "jwt-vectors.json"), "w") as f:
    json.dump({"pyjwt": jwt.__version__, "now": NOW, "keys": keys, "encoded": encoded, "verify": verify, "refused": bad,
               "rfc7515": rfc7515}, f, indent=1, ensure_ascii=False)
print(len(encoded), "encoded,", len(verify), "verified,", len(bad), "refused, PyJWT", jwt.__version__)
