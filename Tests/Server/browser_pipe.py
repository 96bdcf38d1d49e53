#!/usr/bin/env python3
"""Drives headless chromium over the DevTools protocol on a pipe (--remote-debugging-pipe), for
pages that keep a connection open (server-sent events), which --dump-dom cannot wait on.

  browser_pipe.py PROFILE_DIR PAGE_URL SEND_URL EXPRESSION
      opens PAGE_URL, waits until the page has loaded and its event stream is open, sends a GET
      to SEND_URL from here (not from the browser), waits for the page to take it in, then
      prints as JSON what EXPRESSION (JavaScript) evaluates to in the page.
"""
import json, os, subprocess, sys, time, urllib.request

profile, page, send, expression = sys.argv[1:5]
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()

def child_fds():
    os.dup2(to_chrome_r, 3)
    os.dup2(from_chrome_w, 4)

browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                            "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=child_fds, pass_fds=(3, 4))
os.close(to_chrome_r); os.close(from_chrome_w)
incoming = os.fdopen(from_chrome_r, "rb")
pending = b""
next_id = 0

def call(method, params=None, session=None):
    global next_id, pending
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            chunk = incoming.read1(65536)
            if not chunk:
                sys.exit("chromium closed the pipe")
            pending += chunk
        raw, pending = pending.split(b"\0", 1)
        answer = json.loads(raw)
        if answer.get("id") == next_id:
            if "error" in answer:
                sys.exit("%s: %s" % (method, answer["error"]))
            return answer["result"]

def evaluate(session, text):
    result = call("Runtime.evaluate", {"expression": text, "returnByValue": True, "awaitPromise": True}, session)
    return result["result"].get("value")

try:
    target = call("Target.createTarget", {"url": page})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    deadline = time.time() + 10
    # Loaded, and the event stream open (EventSource.OPEN is 1).
    while time.time() < deadline and evaluate(session, "document.readyState === 'complete' && typeof stream !== 'undefined' && stream.readyState === 1") is not True:
        time.sleep(0.1)
    urllib.request.urlopen(send, timeout=10).read()
    time.sleep(0.5)
    print(json.dumps(evaluate(session, expression)))
finally:
    browser.terminate()
    browser.wait()
