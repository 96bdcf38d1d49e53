#!/usr/bin/env python3
"""hashlib, hmac and botocore's SigV4Auth on the same inputs as crypto_lua.lua (medians of 5)."""
import datetime, hashlib, hmac, json, statistics, time
mb = b"pekit benchmark " * 65536
def median(f):
    f(); t = []
    for _ in range(5):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return statistics.median(t)
n = 200
sha = median(lambda: [hashlib.sha256(mb).digest() for _ in range(n)])
mac = median(lambda: [hmac.new(b"key", mb, "sha256").digest() for _ in range(n)])
out = {"impl": "python", "sha256_mbps": n / sha, "hmac_mbps": n / mac}
try:
    import botocore.auth as auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    auth.get_current_datetime = lambda: datetime.datetime(2025, 11, 30, 12, 0, 0)
    creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    signer = auth.SigV4Auth(creds, "iam", "us-east-1")
    m = 5000
    def sign():
        for _ in range(m):
            signer.add_auth(AWSRequest(method="GET", url="https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
                                       headers={"Host": "iam.amazonaws.com", "Accept-Language": "en;q=1"}))
    out["sigv4_us"] = median(sign) / m * 1e6
except ImportError:
    out["sigv4_us"] = None
print(json.dumps(out))
