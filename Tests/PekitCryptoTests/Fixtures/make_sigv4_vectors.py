#!/usr/bin/env python3
"""Generates sigv4-vectors.json: requests signed by botocore (pip install botocore) with
SigV4Auth, S3SigV4Auth, SigV4QueryAuth and S3SigV4QueryAuth at a fixed time, with the canonical
request and string to sign each produced.

Run: python3 Tests/PekitCryptoTests/Fixtures/make_sigv4_vectors.py
"""
import datetime, json, os
import botocore, botocore.auth as auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = datetime.datetime(2026, 11, 30, 12, 34, 56)
auth.get_current_datetime = lambda: TIME

PEKIT_HEADERS = [("User-Agent", "pekit/0.1.0 (Linux; x86_64)"), ("Accept-Language", "en;q=1")]
CASES = [
    # (service, method, url, extra headers, body, token, payload, placement, expires)
    ("iam", "GET", "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08", [], b"", None, "hash", "header", 0),
    ("execute-api", "GET", "https://abc.execute-api.us-east-1.amazonaws.com/prod/items?b=2&a=1&a=0", [], b"", None, "hash", "header", 0),
    ("execute-api", "GET", "https://h.example.com/a/b/../c/./d//e/", [], b"", None, "hash", "header", 0),
    ("execute-api", "GET", "https://h.example.com/%C3%BCber/a%20b/c~d/e!f", [], b"", None, "hash", "header", 0),
    ("execute-api", "GET", "https://h.example.com:8443/x?flag&empty=&k=%2F%20", [], b"", None, "hash", "header", 0),
    ("dynamodb", "POST", "https://dynamodb.us-east-1.amazonaws.com/", [("Content-Type", "application/x-amz-json-1.0"),
     ("X-Amz-Target", "DynamoDB_20120810.ListTables")], b'{"Limit": 10}', "SESSIONTOKEN/+=", "hash", "header", 0),
    ("execute-api", "PUT", "https://h.example.com/upload", [("Content-Type", "text/plain"), ("X-Multi", "a   b \t c "),
     ("X-Dup", "one"), ("X-Dup", "two"), ("Expect", "100-continue"), ("X-Amzn-Trace-Id", "Root=1")], b"hello world", None, "unsigned", "header", 0),
    ("execute-api", "POST", "http://h.example.com/plain", [("Content-Type", "text/plain")], b"body", None, "unsigned", "header", 0),
    ("execute-api", "GET", "https://h.example.com/dated", [("Date", "Mon, 01 Jan 2001 00:00:00 GMT")], b"", "", "hash", "header", 0),
    ("s3", "GET", "https://examplebucket.s3.amazonaws.com/test.txt", [("Range", "bytes=0-9")], b"", None, "hash", "header", 0),
    ("s3", "PUT", "https://examplebucket.s3.amazonaws.com/test%24file.text", [("Date", "Fri, 24 May 2013 00:00:00 GMT"),
     ("x-amz-storage-class", "REDUCED_REDUNDANCY")], b"Welcome to Amazon S3.", None, "hash", "header", 0),
    ("s3", "PUT", "https://b.s3.amazonaws.com/a%20b/c%2Fd//e/../f", [], b"data", None, "unsigned", "header", 0),
    ("s3", "GET", "https://b.s3.amazonaws.com/?list-type=2&prefix=a%2Fb", [], b"", "TOKEN", "hash", "header", 0),
    ("s3", "GET", "https://examplebucket.s3.amazonaws.com/test.txt", [], b"", None, "hash", "query", 86400),
    ("s3", "GET", "https://b.s3.amazonaws.com/k%20ey?versionId=3&x=a+b", [], b"", "TOK/EN", "hash", "query", 60),
    ("execute-api", "GET", "https://h.example.com/p/../q?b=2&a=1&b=3", [], b"", None, "hash", "query", 3600),
    ("sts", "GET", "https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15", [], b"", "T", "unsigned", "query", 900),
]

vectors = []
for service, method, url, extra, body, token, payload, placement, expires in CASES:
    creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token)
    host = url.split("/")[2]
    headers = [("Host", host)] + PEKIT_HEADERS + extra
    request = AWSRequest(method=method, url=url, data=body)
    for name, value in headers:
        request.headers[name] = value
    if payload == "unsigned":
        request.context["payload_signing_enabled"] = False
        if service == "s3":
            request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    if placement == "header":
        signer = (auth.S3SigV4Auth if service == "s3" else auth.SigV4Auth)(creds, service, "us-east-1")
    else:
        signer = (auth.S3SigV4QueryAuth if service == "s3" else auth.SigV4QueryAuth)(creds, service, "us-east-1", expires=expires)
    seen = {}
    cr, sts = signer.canonical_request, signer.string_to_sign
    signer.canonical_request = lambda r, cr=cr: seen.setdefault("canonical", cr(r))
    signer.string_to_sign = lambda r, c, sts=sts: seen.setdefault("sts", sts(r, c))
    signer.add_auth(request)
    vectors.append({"service": service, "method": method, "url": url, "headers": headers, "body": body.hex(), "token": token,
                    "payload": payload, "placement": placement, "expires": expires,
                    "signed_url": request.url, "signed_headers": [[k, v] for k, v in request.headers.items()],
                    "canonical_request": seen["canonical"], "string_to_sign": seen["sts"]})
with open(os.path.join(HERE, "sigv4-vectors.json"), "w") as f:
    json.dump({"botocore": botocore.__version__, "time": int(TIME.replace(tzinfo=datetime.timezone.utc).timestamp()),
               "access_key": "AKIDEXAMPLE", "secret_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "region": "us-east-1",
               "vectors": vectors}, f, indent=1, ensure_ascii=False)
print(len(vectors), "vectors from botocore", botocore.__version__)
