#!/usr/bin/env python3
"""http.cookiejar on the same cookies as `pekit-bench cookies`: Set-Cookie parsing and storing
per second, and Cookie header lookups (µs). usage: cookies_peer.py DOMAINS PER_DOMAIN [--no-lookups]"""
import email.message, http.cookiejar, json, random, statistics, sys, time, urllib.request
domains, per = int(sys.argv[1]), int(sys.argv[2])
class Response:
    def __init__(self, headers): self._m = email.message.Message(); [self._m.add_header("Set-Cookie", h) for h in headers]
    def info(self): return self._m
jar = http.cookiejar.CookieJar()
batches = []
for d in range(domains):
    req = urllib.request.Request(f"https://www.site{d}.example.com/app/page")
    headers = [f"c{c}=value{d}_{c}; Path=/app; Domain=site{d}.example.com; Max-Age=86400; Secure; HttpOnly; SameSite=Lax" for c in range(per)]
    batches.append((req, Response(headers)))
t = time.perf_counter()
for req, resp in batches:
    jar.extract_cookies(resp, req)
parse_per_s = domains * per / (time.perf_counter() - t)
if "--no-lookups" in sys.argv:
    print(json.dumps({"impl": "python", "cookies": sum(1 for _ in jar), "domains": domains, "parse_per_s": int(parse_per_s)}))
    sys.exit(0)
rng = random.Random(1)
lookups = [urllib.request.Request(f"https://www.site{rng.randrange(domains)}.example.com/app/x") for _ in range(2000)]
runs = []
for _ in range(5):
    t = time.perf_counter()
    for r in lookups:
        jar.add_cookie_header(r)
    runs.append((time.perf_counter() - t) / len(lookups) * 1e6)
count = sum(1 for _ in jar)
print(json.dumps({"impl": "python", "cookies": count, "domains": domains, "parse_per_s": int(parse_per_s), "lookup_us": round(statistics.median(runs), 2)}))
