import Foundation
import PekitTestSupport
import XCTest
import PekitHTTP
@testable import PekitLua
@testable import PekitTools

final class HTTPModuleTests: LocalServerLuaTestCase {
    func testResponseShape() {
        XCTAssertEqual(lua.eval(#"r = pekit.http.get(base .. "/echo", { params = { q = "a b", n = 1 }, headers = { ["X-Trace"] = "7" } })"#), "")
        // The REPL shows a response in one line.
        XCTAssertEqual(lua.eval("r").replacingOccurrences(of: #", \d+ bytes"#, with: ", N bytes", options: .regularExpression),
                       "pekit.response: 200 OK, N bytes, GET \(server.base)/echo?n=1&q=a%20b")
        XCTAssertEqual(lua.eval("r.status, r.reason, r.http_version, r.method, r.url == base .. '/echo?n=1&q=a%20b'"), #"200\#t"OK"\#t"1.1"\#t"GET"\#ttrue"#)
        XCTAssertEqual(lua.eval(#"r.headers["content-type"], r:header("Content-Length") == tostring(#r.body), r.bytes == #r.body"#), #""application/json"\#ttrue\#ttrue"#)
        XCTAssertEqual(lua.eval("r.headers[1][1], #r.redirects, math.type(r.timing.total), r.timing.total > 0"), #""Server"\#t0\#t"float"\#ttrue"#)
        XCTAssertEqual(lua.eval("r.address == '127.0.0.1:' .. base:match(':(%d+)$')"), "true")
        _ = lua.eval("e = r:json()")
        XCTAssertEqual(lua.eval(#"e.method, e.target, e.headers[4][1], e.headers[4][2]"#), #""GET"\#t"/echo?n=1&q=a%20b"\#t"X-Trace"\#t"7""#)
        XCTAssertEqual(lua.eval("tostring(r):match('^response 200 http')"), #""response 200 http""#)
        // Every Set-Cookie is kept, in order.
        _ = lua.eval(#"c = pekit.http.get(base .. "/cookies/set?a=1&b=2")"#)
        XCTAssertEqual(lua.eval(#"table.concat(c:header_all("set-cookie"), " | ")"#), #""a=1; Path=/ | b=2; Path=/""#)
    }

    /// `ip_version` (a row of SendOptions.fields, applied by the transfer): the test server
    /// listens on 127.0.0.1, which "6" cannot reach and "4" can.
    func testIPVersion() {
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/bytes/3", { ip_version = "4" }).bytes"#), "3")
        XCTAssertTrue(lua.eval(#"pekit.http.get(base .. "/bytes/3", { ip_version = "6" })"#).hasSuffix("(curl error 7)"), lua.eval(#"pekit.http.get(base .. "/bytes/3", { ip_version = "6" })"#))
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/bytes/3", { ip_version = 4 })"#),
                       #"error: stdin:1: pekit.http.get: bad argument #2 (field "ip_version": expected "4", "6" or "any", got 4)"#)
    }

    /// Every field of the response table as a script sees it, made from a response that no
    /// server here gives (an IPv6 peer, a body with NUL, an empty header value, a redirect).
    func testResponseTableFields() throws {
        var response = PekitResponse()
        response.status = 404; response.reason = "Not Found"; response.httpVersion = "2"
        response.url = "https://[::1]:8443/a?b"; response.method = "DELETE"
        response.body = [0x61, 0x00, 0x62]; response.bodyLength = 3; response.attempts = 2
        response.remoteAddress = "::1"; response.remotePort = 8443
        response.timing.dns = 0.25; response.timing.connect = 0.5; response.timing.tls = 0.75; response.timing.firstByte = 1; response.timing.total = 1.5
        response.headers = [.init(name: "X-Empty", value: ""), .init(name: "Set-Cookie", value: "a=1")]
        response.redirects = [.init(method: "GET", url: "https://[::1]:8443/", status: 308, location: "/a?b")]
        let runtime = lua.runtime
        HTTPModule.push(response: response, in: runtime)
        runtime.setGlobal("made")
        XCTAssertEqual(lua.eval("local keys = {} for k in pairs(made) do keys[#keys + 1] = k end table.sort(keys) return table.concat(keys, ' ')"),
                       #""address attempts body bytes headers http_version method reason redirects status timing trailers url""#)
        XCTAssertEqual(lua.eval("made.status, made.reason, made.http_version, made.url, made.method, made.body == 'a\\0b', made.bytes, made.address, made.attempts"),
                       #"404\#t"Not Found"\#t"2"\#t"https://[::1]:8443/a?b"\#t"DELETE"\#ttrue\#t3\#t"[::1]:8443"\#t2"#)
        XCTAssertEqual(lua.eval("made.timing.dns, made.timing.connect, made.timing.tls, made.timing.first_byte, made.timing.total"), "0.25\t0.5\t0.75\t1.0\t1.5")
        XCTAssertEqual(lua.eval("#made.headers, made.headers[1][1], made.headers[1][2], made.headers['set-cookie'], made:header('x-empty')"),
                       #"2\#t"X-Empty"\#t""\#t"a=1"\#t"""#)
        XCTAssertEqual(lua.eval("#made.redirects, made.redirects[1].method, made.redirects[1].url, made.redirects[1].status, made.redirects[1].location"),
                       #"1\#t"GET"\#t"https://[::1]:8443/"\#t308\#t"/a?b""#)
        response.remoteAddress = "10.0.0.7"; response.remotePort = 80
        HTTPModule.push(response: response, in: runtime)
        runtime.setGlobal("made")
        XCTAssertEqual(lua.eval("made.address"), #""10.0.0.7:80""#)
    }

    /// A session: log in (POST, 303, GET /me) with a jar, then reuse it; per-hop cookies.
    func testSessionWithJar() {
        _ = lua.eval("jar = pekit.cookies.jar()")
        XCTAssertEqual(lua.eval(#"r = pekit.http.post(base .. "/login", { form = { user = "ada", password = "secret" }, jar = jar })"#), "")
        XCTAssertEqual(lua.eval("r.status, r.method, r.redirects[1].status, r.redirects[1].method, r:json().user"), #"200\#t"GET"\#t303\#t"POST"\#t"ada""#)
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/me", { jar = jar }):json().user"#), #""ada""#)
        // A request built with the jar sends its cookies when sent later, fresh from the jar.
        _ = lua.eval(#"req = pekit.request{ url = base .. "/cookies", jar = jar }"#)
        _ = lua.eval(#"pekit.http.get(base .. "/cookies/set?late=1", { jar = jar })"#)
        XCTAssertEqual(lua.eval("req:send():json().cookie:gsub('session=%x+', 'session=S')"), #""session=S; late=1"\#t1"#)
        XCTAssertEqual(lua.eval("pekit.http.send(req, { jar = pekit.cookies.jar() }):json().cookie"), "pekit.null")
        // A Cookie header written by hand is sent as it is.
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/cookies", { jar = jar, headers = { Cookie = "mine=1" } }):json().cookie"#), #""mine=1""#)
        // ...and one removed by hand stays removed, on every hop, as it was when built.
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/redirect/302?to=/cookies", { jar = jar, headers = { Cookie = false } }):json().cookie"#), "pekit.null")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/logout", { jar = jar }).status, pekit.http.get(base .. "/me", { jar = jar }).status"#), "200\t401")
    }

    /// connect in the request: shown in req:curl(), used by req:send(), with SNI and cookies by name.
    func testConnectAndTLS() {
        _ = lua.eval(#"url = "https://api.example.test:" .. tls_port .. "/cookies/set?k=v""#)
        _ = lua.eval(#"req = pekit.request{ url = url, connect = { ["api.example.test:" .. tls_port] = "127.0.0.1:" .. tls_port } }"#)
        XCTAssertEqual(lua.eval("req:curl():match('%-%-connect%-to (%S+)') == 'api.example.test:' .. tls_port .. ':127.0.0.1:' .. tls_port"), "true")
        _ = lua.eval("jar = pekit.cookies.jar()")
        _ = lua.eval("r = req:send{ cacert = cacert, jar = jar }")
        _ = lua.eval("e = r:json()")
        XCTAssertEqual(lua.eval("r.status, e.sni, e.tls"), #"200\#t"api.example.test"\#ttrue"#)
        XCTAssertEqual(lua.eval("jar:all()[1].domain, r.timing.tls > 0"), #""api.example.test"\#ttrue"#)
        let untrusted = lua.eval("select(2, pcall(req.send, req))")
        XCTAssertTrue(untrusted.hasPrefix(#""request.send: GET https://api.example.test:"#) && untrusted.contains("SSL certificate problem: unable to get local issuer certificate (curl error 60); to trust a private CA pass cacert"), untrusted)
    }

    func testErrorsAreCatchableAndNamed() {
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.http.get, "http://127.0.0.1:1/"))"#).replacingOccurrences(of: #"after \d+ ms"#, with: "after 0 ms", options: .regularExpression),
                       #""pekit.http.get: GET http://127.0.0.1:1/: Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server (curl error 7)""#)
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/x", { timeout = "soon" })"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"timeout\": expected a number of seconds more than 0 and at most 1000000, got \"soon\")")
        XCTAssertTrue(lua.eval(#"pekit.http.get(base, { bogus = 1 })"#).hasSuffix(#"pekit.http.get: bad argument #2 (unknown field "bogus"; known: method, keep_method_case, url, url_as_curl, path_as_is, base, params, policy, params_in, methods_in_query, headers, json, form, body, body_file, upload, content_type, multipart, boundary, auth, jar, connect, sign, target, compressed, user_agent, referer, range, cookie, same_site, site_for_cookies, navigation, top_level, follow, location_trusted, auto_referer, post301, post302, post303, auth_scheme, netrc, netrc_file, max_redirects, timeout, connect_timeout, insecure, cacert, proxy, proxy_auth, expect100_timeout, noproxy, proxytunnel, unix_socket, abstract_unix_socket, cert, cert_type, key, key_type, pass, hsts, http09, http, tr_encoding, ignore_content_length, raw_transfer, sink, max_body, ip_version, retry, rate, progress, until, every, max_time)"#))
        XCTAssertTrue(lua.eval(#"pekit.http.get(base, { url = "http://x/" })"#).hasSuffix(#"bad argument #2 (field "url": the URL is the first argument)"#))
        XCTAssertTrue(lua.eval(#"pekit.http.send(pekit.request{url = base}, { folow = false })"#).hasSuffix(#"pekit.http.send: bad argument #2 (unknown field "folow" (did you mean "follow"?); known: jar, same_site, site_for_cookies, navigation, top_level, follow, location_trusted, auto_referer, post301, post302, post303, auth_scheme, netrc, netrc_file, max_redirects, timeout, connect_timeout, insecure, cacert, proxy, proxy_auth, expect100_timeout, noproxy, proxytunnel, unix_socket, abstract_unix_socket, cert, cert_type, key, key_type, pass, hsts, http09, connect, http, tr_encoding, ignore_content_length, compressed, raw_transfer, sink, max_body, ip_version, retry, rate, progress, until, every, max_time)"#))
        XCTAssertTrue(lua.eval(#"pekit.http.get(base, { connect = { ["a:1"] = "::1" } })"#).hasSuffix(#"connect["a:1"] = "::1": write an IPv6 address in brackets, as [2001:db8::1]:443"#))
        XCTAssertEqual(lua.eval(#"r = pekit.http.get(base .. "/chain/3", { max_redirects = 1 })"#),
                       "error: stdin:1: pekit.http.get: \(server.base)/chain/3: more than 1 redirects (raise max_redirects, or follow = false to see the response)")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/chain/3", { follow = false }).status"#), "302")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/status/503").status"#), "503")
    }

    /// A body kept in memory has a limit (1 GiB by default, max_body to change it), counted after
    /// decompression; a streamed one has none unless asked.
    func testBodyLimits() {
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.http.get, base .. "/bytes/5000", { max_body = 1000 }))"#),
                       #""pekit.http.get: \#(server.base)/bytes/5000: the response body is larger than 1000 bytes (max_body); stream it with sink = \"file\" or sink = function(chunk), or raise max_body""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.http.get, base .. "/gzip", { compressed = true, max_body = 1000 }))"#),
                       #""pekit.http.get: \#(server.base)/gzip: the response body is larger than 1000 bytes (max_body); stream it with sink = \"file\" or sink = function(chunk), or raise max_body""#)
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/bytes/5000", { max_body = 5000 }).bytes"#), "5000")
        XCTAssertEqual(lua.eval(#"(function() local n = 0 pekit.http.get(base .. "/bytes/5000", { sink = function(c) n = n + #c end }) return n end)()"#), "5000")
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.http.get, base .. "/bytes/5000", { max_body = 100, sink = function() end }))"#),
                       #""pekit.http.get: \#(server.base)/bytes/5000: the response body is larger than 100 bytes (max_body); raise max_body""#)
        XCTAssertEqual(SendOptions().effectiveMaxBody, 1 << 30)
    }

    /// Sinks: a function gets the chunks; a path gets the file, complete; an error in the
    /// function stops the transfer and comes back with its place; `false` stops it as a response.
    func testSinks() throws {
        let dir = try makeTemporaryDirectory("sink")
        _ = lua.eval("n, calls = 0, 0")
        _ = lua.eval(#"r = pekit.http.get(base .. "/bytes/500000", { sink = function(chunk) n = n + #chunk; calls = calls + 1 end })"#)
        XCTAssertEqual(lua.eval("n, r.bytes, #r.body, calls > 1"), "500000\t500000\t0\ttrue")
        _ = lua.eval(#"r = pekit.http.get(base .. "/bytes/70000", { sink = "\#(dir.path)/out.bin" })"#)
        XCTAssertEqual(lua.eval("r.bytes"), "70000")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("out.bin")).count, 70000)
        XCTAssertTrue(lua.eval(#"pekit.http.get(base .. "/bytes/70000", { sink = function() error("full") end })"#).contains("sink: stdin:1: full"), "place of the error")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.bin"])
        // A sink may send another request (it gets its own connection).
        _ = lua.eval(#"pekit.http.get(base .. "/bytes/10", { sink = function() inner = inner or pekit.http.get(base .. "/echo").status end })"#)
        XCTAssertEqual(lua.eval("inner"), "200")
        // An upload from a file.
        try Data(repeating: 0x61, count: 200_000).write(to: dir.appendingPathComponent("up.bin"))
        XCTAssertEqual(lua.eval(#"pekit.http.post(base .. "/upload", { body_file = "\#(dir.path)/up.bin" }):json().length"#), "200000")
        // Issue 73: a sink that returns false stops the transfer there, and the response comes
        // back (`stopped`), on pekit's own transfer and on libcurl's (compressed asks libcurl):
        // one piece of three that come 0.3 s apart, long before the others would.
        for extra in ["", ", compressed = true"] {
            _ = lua.eval("calls, t0 = 0, pekit.time.now()")
            _ = lua.eval(#"r = pekit.http.get(base .. "/bytes/48192?chunked=1&pause=0.3", { sink = function() calls = calls + 1 return false end\#(extra) })"#)
            XCTAssertEqual(lua.eval("calls, r.status, r.stopped, r.bytes, pekit.time.now() - t0 < 0.3"), "1\t200\ttrue\t16064\ttrue", extra)
        }
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/bytes/5000", { sink = function() end }).stopped"#), "nil")
    }

    /// The jar's filters apply to every hop: a deny filter drops its cookie (the redirect's is
    /// kept); the httpdns filter
    /// files a cookie received by IP under the name, and a later request to the name (reached
    /// with connect, over TLS) sends it.
    func testJarFiltersApplyWhenSending() {
        _ = lua.eval(#"deny = pekit.cookies.jar{ filter = { "deny", names = { "^a$" } } }"#)
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/redirect/302?to=/cookies/set%3Fa%3D1&cookie=b%3D2", { jar = deny }).status, #deny, deny:all()[1].name"#), "200\t1\t\"b\"")
        _ = lua.eval(#"ipjar = pekit.cookies.jar{ filter = { "httpdns", hosts = { ["127.0.0.1"] = "api.example.test" } } }"#)
        _ = lua.eval(#"pekit.http.get(base .. "/cookies/set?k=v", { jar = ipjar })"#)
        XCTAssertEqual(lua.eval("ipjar:all()[1].domain"), #""api.example.test""#)
        _ = lua.eval(#"name = "api.example.test:" .. tls_port"#)
        XCTAssertEqual(lua.eval(#"pekit.http.get("https://" .. name .. "/cookies", { jar = ipjar, cacert = cacert, connect = { [name] = "127.0.0.1:" .. tls_port } }):json().cookie"#), #""k=v""#)
        // ...and by IP again, through the filter's host mapping.
        XCTAssertEqual(lua.eval(#"pekit.http.get(base .. "/cookies", { jar = ipjar }):json().cookie"#), #""k=v""#)
    }
}
