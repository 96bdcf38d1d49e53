import Foundation
import XCTest
import PekitCore
@testable import PekitLua
@testable import PekitTools

final class CookiesModuleTests: XCTestCase {
    // The seed's three operations: store from response headers for a URL, the Cookie header
    // for a URL, delete for a URL.
    func testSeedOperations() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("jar = pekit.cookies.jar{ now = 1700000000 }"), "")
        XCTAssertEqual(lua.eval(#"r = jar:receive("https://www.example.com/account/login", { "sid=abc; Path=/; Secure; HttpOnly", "theme=dark", "=" })"#), "")
        XCTAssertEqual(lua.eval("#r.stored, #r.rejected, r.rejected[1].name, r.rejected[1].rule"), "2\t1\t\"=\"\t\"empty-name-and-value\"")
        // theme has the default path /account: longer paths come first.
        XCTAssertEqual(lua.eval(#"jar:header("https://www.example.com/account/x")"#), #""theme=dark; sid=abc""#)
        XCTAssertEqual(lua.eval(#"jar:header("https://www.example.com/")"#), #""sid=abc""#)
        XCTAssertEqual(lua.eval(#"jar:header("https://www.example.com/", { http_only = false })"#), "nil")
        XCTAssertEqual(lua.eval(#"jar:delete("https://www.example.com/account/")"#), "2")
        XCTAssertEqual(lua.eval("#jar"), "0")
        // A list is checked whole before any value is stored; values are read as bytes (a NUL
        // is a control byte, so that cookie is refused, naming the place).
        XCTAssertEqual(lua.eval(#"jar:receive("https://www.example.com/", { "a=1", 5, "b=2" })"#),
                       "error: stdin:1: jar.receive: bad argument #3 (a list of Set-Cookie strings expected; item 2 is a number)")
        XCTAssertEqual(lua.eval("#jar"), "0")
        XCTAssertEqual(lua.eval(#"(function() local r = jar:receive("https://www.example.com/", { "a=1", "n=x\0y", "b=2" }) return #r.stored, r.rejected[1].name, r.rejected[1].reason end)()"#),
                       #"2\#t"n"\#t"the value holds control byte 0x00 at byte 2 (ignored, as RFC 6265bis section 5.6 says)""#)
    }

    // IP direct connect, end to end: received by IP, sent by name and by another IP of the host.
    /// A cookie's table is the same whichever way it reaches a script: a filter's argument
    /// (made from the cookie as a value) and jar:receive's, jar:cookies' and jar:all's results
    /// (made field by field), every field and type alike.
    func testCookieTablesAreTheSameEverywhere() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("seen = {} jar = pekit.cookies.jar{ now = 1700000000, filter = { accept = function(c) seen[#seen + 1] = c return true end } }"), "")
        XCTAssertEqual(lua.eval(#"r = jar:receive("https://www.example.com/a/b", { "sid=abc; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=60; Partitioned", "t=1; Domain=example.com" })"#), "")
        let same = """
            local function same(a, b)
              for k, v in pairs(a) do if b[k] ~= v or math.type(b[k]) ~= math.type(v) then return k end end
              for k in pairs(b) do if a[k] == nil then return k end end
              return true
            end
            local all, sid = jar:all(), nil
            for _, c in ipairs(all) do if c.name == "sid" then sid = c end end
            return same(seen[1], r.stored[1]), same(seen[2], r.stored[2]), same(r.stored[1], sid), #all, r.stored[1].same_site, r.stored[2].expires
            """
        XCTAssertEqual(lua.eval(same.replacingOccurrences(of: "\n", with: " ")), "true\ttrue\ttrue\t2\t\"Lax\"\tnil")
    }

    func testHTTPDNSFilter() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        _ = lua.eval(#"jar = pekit.cookies.jar{ filter = { "httpdns", hosts = { ["203.0.113.7"] = "api.example.com", ["203.0.113.8"] = "API.example.com" } } }"#)
        XCTAssertEqual(lua.eval(#"jar:receive("http://203.0.113.7/login", "session=s1; Path=/").stored[1].domain"#), #""api.example.com""#)
        XCTAssertEqual(lua.eval(#"jar:header("http://api.example.com/me")"#), #""session=s1""#)
        XCTAssertEqual(lua.eval(#"jar:header("http://203.0.113.8/me")"#), #""session=s1""#)
        XCTAssertEqual(lua.eval(#"jar:header("http://203.0.113.9/me")"#), "nil")
        // Without the filter the cookie stays with the IP address.
        _ = lua.eval("plain = pekit.cookies.jar{}")
        _ = lua.eval(#"plain:receive("http://203.0.113.7/login", "session=s1; Path=/")"#)
        XCTAssertEqual(lua.eval(#"plain:header("http://api.example.com/me")"#), "nil")
    }

    /// The Swift preset `CookieFilter.httpdns(hosts:)` stores and sends as the plugin does.
    func testTheSwiftHTTPDNSPresetIsThePlugin() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        _ = lua.eval(#"jar = pekit.cookies.jar{ filter = { "httpdns", hosts = { ["203.0.113.7"] = "api.example.com", ["203.0.113.8"] = "API.example.com" } } }"#)
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        jar.filters = [.httpdns(hosts: ["203.0.113.7": "api.example.com", "203.0.113.8": "API.example.com"])]
        for (from, field) in [("http://203.0.113.7/login", "session=s1; Path=/"), ("http://api.example.com/", "b=2; Path=/"),
                              ("http://203.0.113.9/", "c=3; Path=/"), ("http://203.0.113.8/x/", "d=4")] {
            _ = lua.eval(#"jar:receive("\#(from)", "\#(field)")"#)
            _ = try jar.receive(field, from: RequestURL(from))
        }
        for url in ["http://api.example.com/me", "http://203.0.113.8/me", "http://203.0.113.8/x/y", "http://203.0.113.9/me", "http://203.0.113.7/"] {
            let swift = try jar.header(for: RequestURL(url)).map { "\"\($0)\"" } ?? "nil"
            XCTAssertEqual(swift, lua.eval(#"jar:header("\#(url)")"#), url)
        }
        XCTAssertEqual(try jar.header(for: RequestURL("http://203.0.113.8/x/y")), "d=4; session=s1; b=2")
    }

    func testFiltersStackAndNaiveRuleLeaks() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        _ = lua.eval(#"naive = pekit.cookies.jar{ filter = "host-contains" }"#)
        _ = lua.eval(#"naive:receive("http://example.com/", "t=1")"#)
        XCTAssertEqual(lua.eval(#"naive:header("http://evil-example.com/")"#), #""t=1""#, "the unsafe rule leaks, as its description warns")
        _ = lua.eval(#"safe = pekit.cookies.jar{}"#)
        _ = lua.eval(#"safe:receive("http://example.com/", "t=1")"#)
        XCTAssertEqual(lua.eval(#"safe:header("http://evil-example.com/")"#), "nil")
        _ = lua.eval(#"stacked = pekit.cookies.jar{ filter = { { "deny", names = { "^_ga" } }, { accept = function(c) return c.value ~= "no" end } } }"#)
        XCTAssertEqual(lua.eval(#"(function() local r = stacked:receive("http://example.com/", { "_ga=1", "a=no", "b=yes" }) return #r.stored, r.rejected[1].reason, r.rejected[2].reason end)()"#),
                       "1\t\"refused by the filter \\\"deny\\\"\"\t\"refused by the filter \\\"inline\\\"\"")
        _ = lua.eval(#"rw = pekit.cookies.jar{ filter = { rewrite = function(c) c.value = c.value:upper(); return c end } }"#)
        XCTAssertEqual(lua.eval(#"rw:receive("http://example.com/", "a=low").stored[1].value"#), #""LOW""#)
        XCTAssertEqual(lua.eval(#"pekit.cookies.jar{ filter = "afnetworking" }"#), #"error: stdin:1: pekit.cookies.jar: plugin "afnetworking" (\#(repoPlugins)/afnetworking.lua) is a policy, not a cookie-filter"#)
        XCTAssertEqual(lua.eval(#"pekit.cookies.jar{ filtre = "x" }"#), #"error: stdin:1: pekit.cookies.jar: bad argument #1 (unknown field "filtre" (did you mean "filter"?); known: filter, now, public_suffixes, file, as_curl)"#)
    }

    func testExplainSetClockAndPersistence() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        _ = lua.eval("jar = pekit.cookies.jar{ now = 1700000000 }")
        _ = lua.eval(#"jar:receive("https://a.example.com/p/", { "d=1; Domain=example.com; Path=/", "h=2; Path=/p", "s=3; Secure; Path=/", "old=4; Max-Age=10; Path=/" })"#)
        _ = lua.eval(#"jar:set{ name = "manual", value = "m", domain = ".example.com", path = "/", same_site = "Strict" }"#)
        XCTAssertEqual(lua.eval("jar:clock(1700000020)"), "1700000020.0")
        let explained = lua.eval(#"(function() local out = {} for _, v in ipairs(jar:explain("http://b.example.com/q")) do out[#out + 1] = v.cookie.name .. ":" .. tostring(v.sent) .. ":" .. v.reason end return table.concat(out, "|") end)()"#)
        XCTAssertEqual(explained, #""s:false:domain: host-only cookie for a.example.com, not b.example.com|old:false:expired|h:false:domain: host-only cookie for a.example.com, not b.example.com|d:true:sent: b.example.com domain-matches example.com, path / matches /q|manual:true:sent: b.example.com domain-matches example.com, path / matches /q""#)
        XCTAssertEqual(lua.eval(#"jar:header("http://b.example.com/", { same_site = "cross-site" })"#), #""d=1""#)
        XCTAssertEqual(lua.eval("jar:expire()"), "1")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-jar-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // cookies.txt has no creation times, but is written in creation order, and JSON keeps
        // them: either way the header comes back in the same order (equal paths by creation).
        for (format, header) in [("netscape", "h=2; d=1; s=3; manual=m"), ("json", "h=2; d=1; s=3; manual=m")] {
            XCTAssertEqual(lua.eval(#"jar:save("\#(dir)/jar.\#(format)", { format = "\#(format)", sessions = true })"#), "")
            _ = lua.eval("back = pekit.cookies.jar{ now = 1700000020 }")
            XCTAssertEqual(lua.eval(#"back:load("\#(dir)/jar.\#(format)")"#), "4\tpekit.array{}")
            XCTAssertEqual(lua.eval(#"back:header("https://a.example.com/p/x")"#), "\"\(header)\"", format)
        }
        XCTAssertEqual(lua.eval(#"jar:save("/nonexistent-dir/x.txt")"#), #"error: stdin:1: jar.save: /nonexistent-dir/x.txt.lock: No such file or directory"#)
        XCTAssertEqual(lua.eval(#"jar:load("/nonexistent-dir/x.txt")"#), #"error: stdin:1: jar.load: /nonexistent-dir/x.txt: cannot read the file (No such file or directory)"#)
        XCTAssertEqual(lua.eval(#"jar:header("notaurl")"#), #"error: stdin:1: jar.header: bad argument #2 (invalid URL "notaurl": expected scheme://host)"#)
    }
}

final class RequestModuleTests: XCTestCase {
    /// `headers` in order with repeats (a list of pairs, a pekit.ordered table, whole lines as curl's
    /// -H takes them), a plain table in name order; curl's own fields in curl's places; one framing.
    func testHeadersInOrderWithRepeats() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        func raw(_ fields: String) -> String { lua.eval("pekit.request{ url = 'http://x/', \(fields) }:raw()") }
        XCTAssertEqual(raw(#"headers = { { "X-Dup", "a" }, { "X-Dup", "b" }, { "User-Agent", false }, "X-Raw:as  is", "X-Gone:" }"#),
                       #""GET / HTTP/1.1\r\nHost: x\r\nAccept: */*\r\nX-Dup: a\r\nX-Dup: b\r\nX-Raw:as  is\r\n\r\n""#)
        XCTAssertEqual(raw(#"headers = pekit.ordered{ { "B", "1" }, { "A", 2 } }"#),
                       #""GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nB: 1\r\nA: 2\r\n\r\n""#)
        XCTAssertEqual(raw(#"headers = { B = "1", A = 2.5, Accept = "x/y" }"#),
                       #""GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nA: 2.5\r\nAccept: x/y\r\nB: 1\r\n\r\n""#)
        XCTAssertEqual(raw(#"user_agent = false, referer = "http://r/", cookie = "a=1", compressed = true, headers = { Host = "h2" }"#),
                       #""GET / HTTP/1.1\r\nHost: h2\r\nAccept: */*\r\nAccept-Encoding: deflate, gzip, br, zstd\r\nReferer: http://r/\r\nCookie: a=1\r\n\r\n""#)
        // A request's headers are such a list: repeats survive a copy.
        XCTAssertEqual(lua.eval(#"#pekit.request{ url = 'http://x/', headers = pekit.request{ url = 'http://y/', headers = { { "X", "1" }, { "X", "2" } } }.headers }.headers"#), "5")
        // No body, no Content-Length (as curl -X POST); an empty body has one.
        XCTAssertEqual(raw("method = 'POST'"), #""POST / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\n\r\n""#)
        XCTAssertEqual(raw("method = 'POST', body = ''"),
                       #""POST / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nContent-Length: 0\r\nContent-Type: application/octet-stream\r\n\r\n""#)
        // Chunked: the chunks as they go, never with Content-Length; an empty body still ends.
        XCTAssertEqual(raw(#"method = 'POST', body = 'abc', headers = { { "Transfer-Encoding", "chunked" } }"#),
                       #""POST / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nTransfer-Encoding: chunked\r\nContent-Type: application/octet-stream\r\n\r\n3\r\nabc\r\n0\r\n\r\n""#)
        XCTAssertEqual(raw(#"headers = { { "Transfer-Encoding", "chunked" } }"#),
                       #""GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n""#)
        XCTAssertEqual(raw(#"body = 'abc', headers = { { "Transfer-Encoding", "chunked" }, { "Content-Length", "3" } }"#),
                       "error: stdin:1: pekit.request: Content-Length and Transfer-Encoding cannot go together (RFC 9112 §6.2): leave one out")
        XCTAssertEqual(raw(#"headers = { { "X-A" } }"#), #"error: stdin:1: pekit.request: bad argument #1 (field "headers": entry 1 must be a {name, value} pair, or a line "Name: value")"#)
        XCTAssertEqual(raw(#"headers = { "no colon" }"#), #"error: stdin:1: pekit.request: bad argument #1 (field "headers": entry 1: a header line is 'Name: value' (or 'Name;' for an empty one), not 'no colon')"#)
        XCTAssertEqual(raw("json = {}, body = 'x'"), "error: stdin:1: pekit.request: give one body: json, form, body, body_file or multipart")
    }

    func testRequestsFromLua() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let seed = #"{name = "小A", phone = {mobile = "xx", home = "xx"}, families = {"father", "mother"}, nums = pekit.set{"1", "2"}, does_not_include = "/?", space = " ", GeneralDelimitersToEncode = ":#[]@", SubDelimitersToEncode = "!$&'()*+,;="}"#
        let query = "GeneralDelimitersToEncode=%3A%23%5B%5D%40&SubDelimitersToEncode=%21%24%26%27%28%29%2A%2B%2C%3B%3D&does_not_include=/?&families%5B%5D=father&families%5B%5D=mother&name=%E5%B0%8FA&nums=1&nums=2&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx&space=%20"
        XCTAssertEqual(lua.eval("pekit.request{ url = 'https://www.baidu.com', params = \(seed), policy = 'afnetworking' }.url"), "\"https://www.baidu.com?\(query)\"")
        _ = lua.eval("post = pekit.request{ method = 'POST', url = 'https://www.baidu.com', params = \(seed), policy = 'afnetworking' }")
        XCTAssertEqual(lua.eval("post.url, post.body == '\(query)', post.headers['content-type'], post.headers[1][1]"),
                       "\"https://www.baidu.com\"\ttrue\t\"application/x-www-form-urlencoded; charset=utf-8\"\t\"Host\"")
        XCTAssertEqual(lua.eval("pekit.request{ url = 'users', base = 'https://api.example.com/v1', json = pekit.ordered{ {'b', 1}, {'a', pekit.null} }, method = 'PUT', policy = 'qs' }.body"),
                       #""{\"b\":1,\"a\":null}""#)
        XCTAssertEqual(lua.eval("pekit.request{ url = 'http://x/', headers = { ['X-A'] = 'a\\r\\nB: c' } }"),
                       "error: stdin:1: pekit.request: header X-A: the value contains CR at byte 2 (header injection is refused)")
        XCTAssertEqual(lua.eval("pekit.request{ url = 'http://x/', colour = 1 }"),
                       "error: stdin:1: pekit.request: bad argument #1 (unknown field \"colour\"; known: method, keep_method_case, url, url_as_curl, path_as_is, base, params, policy, params_in, methods_in_query, headers, json, form, body, body_file, upload, content_type, multipart, boundary, auth, jar, connect, sign, target, compressed, user_agent, referer, range, cookie, same_site, site_for_cookies, navigation, top_level)")
        _ = lua.eval("jar = pekit.cookies.jar{}; jar:receive('https://api.example.com/', 'sid=9')")
        XCTAssertEqual(lua.eval("pekit.request{ url = 'https://api.example.com/me', jar = jar, auth = { user = 'u', password = 'p' } }.headers.cookie"), "\"sid=9\"")
        XCTAssertEqual(lua.eval("#pekit.request{ url = 'http://x/', method = 'POST', multipart = { { name = 'a', value = 'b' } }, boundary = 'XYZ' }:raw()"), "214")
        XCTAssertEqual(lua.eval("pekit.request{ url = 'http://x/', method = 'POST', body = 'a\\0b', content_type = 'application/x-thing' }:curl()"),
                       #""printf 'a\\000b' | curl --http1.1 --request POST http://x/ -H 'Host: x' -H 'User-Agent: pekit/0.1.0 (Linux; x86_64)' -H 'Accept: */*' -H 'Content-Length: 3' -H 'Content-Type: application/x-thing' --data-binary @-""#)
    }
}

final class RequestPolicyDefaultsTests: XCTestCase {
    func testABackendPluginCarriesRequestDefaults() throws {
        let directory = try pluginDirectory(["mybackend": """
            return { kind = "policy", extends = "afnetworking", params_in = "query",
                     headers = { ["X-Api-Version"] = "2", Accept = "application/json" } }
            """, "badheaders": #"return { kind = "policy", headers = { ["X-A"] = "1\r\n2" } }"#])
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory, repoPlugins]))
        _ = lua.eval("r = pekit.request{ method = 'POST', url = 'http://api/x', params = { b = 1, a = 2 }, policy = 'mybackend' }")
        XCTAssertEqual(lua.eval("r.url, r.body, r.headers.accept, r.headers['x-api-version']"), "\"http://api/x?a=2&b=1\"\t\"\"\t\"application/json\"\t\"2\"")
        XCTAssertEqual(lua.eval("select(2, pcall(pekit.request, { url = 'http://x/', policy = 'badheaders' }))").replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.request: plugin \"badheaders\" (DIR/badheaders.lua): field \"headers\": header X-A: the value contains CR at byte 2 (header injection is refused)""#)
    }
}
