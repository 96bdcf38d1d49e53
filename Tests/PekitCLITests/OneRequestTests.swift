import Foundation
import PekitTestSupport
import XCTest

/// Issue 42: the command line builds what Lua builds, with the same policies, filters and signer.
final class OneRequestTests: XCTestCase {
    private func firstLine(_ args: [String]) throws -> String {
        let r = try PekitProcess.run(["request"] + args)
        XCTAssertEqual(r.stderr, "", args.joined(separator: " "))
        return String(r.stdout.split(separator: "\r\n").first ?? "")
    }

    /// A policy whose rules are Lua functions (the shipped jquery, an own `order = function`)
    /// works in `pekit request` as in `pekit query`: the command keeps its Lua host alive.
    func testPoliciesWithLuaFunctionsWorkInRequest() throws {
        let args = ["--policy", "jquery", "--param-json", #"a=[{"b":1}]"#, "http://h/"]
        XCTAssertEqual(try firstLine(args), "GET /?a%5B0%5D%5Bb%5D=1 HTTP/1.1")
        let described = try PekitProcess.run(["request", "--describe"] + args)
        XCTAssertEqual(described.stderr, "")
        XCTAssertTrue(described.stdout.hasPrefix(#"{"method":"GET","url":"http://h/?a%5B0%5D%5Bb%5D=1","#), described.stdout)
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "jquery", #"{"a":[{"b":1}]}"#]).stdout, "a%5B0%5D%5Bb%5D=1\n")

        let dir = try makeTemporaryDirectory("order-function")
        try #"return { kind = "policy", extends = "rfc3986", order = function(a, b) return a > b end }"#
            .write(toFile: dir.appendingPathComponent("backwards.lua").path, atomically: true, encoding: .utf8)
        let own = ["--plugins", dir.path, "--policy", "backwards"]
        XCTAssertEqual(try firstLine(own + ["--param", "a=1", "--param", "c=3", "--param", "b=2", "http://h/"]), "GET /?c=3&b=2&a=1 HTTP/1.1")
        XCTAssertEqual(try PekitProcess.run(["query"] + own + [#"{"a":1,"c":3,"b":2}"#]).stdout, "c=3&b=2&a=1\n")
    }

    /// Top-level --param keys are ordered by the policy, as `pekit query` orders them, and a key
    /// given twice is a list, written as the policy writes lists.
    func testTopLevelParamsFollowThePolicysOrderAndLists() throws {
        XCTAssertEqual(try firstLine(["--policy", "afnetworking", "--param", "b=1", "--param", "a=2", "http://h/"]), "GET /?a=2&b=1 HTTP/1.1")
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "afnetworking", #"{"b":1,"a":2}"#]).stdout, "a=2&b=1\n")
        let roles = ["--param", "roles=admin", "--param", "roles=dev", "--param-json", "n=1", "http://h/"]
        XCTAssertEqual(try firstLine(["--policy", "afnetworking"] + roles), "GET /?n=1&roles%5B%5D=admin&roles%5B%5D=dev HTTP/1.1")
        XCTAssertEqual(try firstLine(["--policy", "php"] + roles), "GET /?roles%5B0%5D=admin&roles%5B1%5D=dev&n=1 HTTP/1.1")
    }

    /// `pekit request --filter` puts a cookie-filter plugin on the jar, as `pekit cookies
    /// --filter` does; with httpdns the cookies are the name's, and no warning says otherwise.
    func testRequestTakesACookieFilter() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("request-filter")
        let jar = dir.appendingPathComponent("jar.txt").path
        let r = try PekitProcess.run(["request", "--send", "--jar", jar, "--filter", "httpdns:hosts=127.0.0.1=api.example.com",
                                      "-H", "Host: api.example.com", "\(server.base)/cookies/set?sid=1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "no warning: the filter stored the cookie under api.example.com")
        let header = try PekitProcess.run(["cookies", "header", jar, "http://api.example.com/"])
        XCTAssertEqual(header.stdout, "sid=1\n")
        // Without the filter, a hand-written Host names the cookies too, as curl 7.88 keeps them:
        // the -c file holds the lines curl writes.
        let plain = try PekitProcess.run(["request", "--send", "-H", "Host: api.example.com", "-c", dir.appendingPathComponent("c.txt").path,
                                          "\(server.base)/cookies/set?sid=1"])
        XCTAssertEqual(plain.stderr, "")
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "-H", "Host: api.example.com", "-c", dir.appendingPathComponent("curl.txt").path,
                                                          "\(server.base)/cookies/set?sid=1"])
        func lines(_ name: String) throws -> [String] {
            try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("# ") && $0 != "#" }.map(String.init)
        }
        XCTAssertEqual(try lines("c.txt"), try lines("curl.txt"))
        // The same from Lua: a jar with the httpdns filter, a request carrying the name in Host.
        let lua = try PekitProcess.run(["run", "-e", """
            local jar = pekit.cookies.jar{ filter = { "httpdns", hosts = { ["127.0.0.1"] = "api.example.com" } } }
            local r = pekit.http.get("\(server.base)/cookies/set?sid=2", { jar = jar, headers = { Host = "api.example.com" } })
            print(r.status, jar:header("http://api.example.com/"))
            """])
        XCTAssertEqual(lua.stderr, "")
        XCTAssertEqual(lua.stdout, "200\tsid=2\n")
        let bad = try PekitProcess.run(["request", "--filter", "nosuchfilter", "http://h/"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.hasPrefix("pekit request: --filter: "), bad.stderr)
    }

    /// SigV4 signs what botocore signs: not the Content-Length pekit frames the body with, from
    /// Lua's pekit.request (held to botocore's vector) and from `pekit request --aws-sigv4`.
    func testSigV4LeavesPekitsFramingUnsigned() throws {
        let fixtures = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCryptoTests/Fixtures/sigv4-vectors.json")
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures)) as? [String: Any])
        let vectors = try XCTUnwrap(root["vectors"] as? [[String: Any]])
        let vector = try XCTUnwrap(vectors.first { $0["method"] as? String == "POST" && $0["url"] as? String == "http://h.example.com/plain" })
        let signed = try XCTUnwrap(vector["signed_headers"] as? [[String]])
        let expected = try XCTUnwrap(signed.first { $0[0] == "Authorization" }?[1])
        let time = try XCTUnwrap(root["time"] as? Int)
        let script = """
            local req = pekit.request{ method = "POST", url = "http://h.example.com/plain", body = "body",
              headers = { { "Accept", false }, { "Accept-Language", "en;q=1" }, { "Content-Type", "text/plain" } } }
            req = pekit.sign.aws_sigv4(req, { access_key = "\(root["access_key"]!)", secret_key = "\(root["secret_key"]!)",
              region = "\(root["region"]!)", service = "execute-api", payload = "unsigned", time = \(time) })
            print(req:header("Content-Length"), req:header("Authorization"))
            """
        let lua = try PekitProcess.run(["run", "-e", script])
        XCTAssertEqual(lua.stderr, "")
        XCTAssertEqual(lua.stdout, "4\t\(expected)\n")
        let cli = try PekitProcess.run(["request", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-u", "AKID:SECRET",
                                        "-d", "a=1", "http://h.example.com/plain"])
        let authorization = try XCTUnwrap(cli.stdout.components(separatedBy: "\r\n").first { $0.hasPrefix("Authorization: ") })
        XCTAssertTrue(authorization.contains(", SignedHeaders=accept;content-type;host;x-amz-date, "), authorization)
        XCTAssertTrue(cli.stdout.contains("\r\nContent-Length: 3\r\n"), cli.stdout)
        // A Content-Length the user wrote is the user's, and signed.
        let given = try PekitProcess.run(["request", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-u", "AKID:SECRET",
                                          "-H", "Content-Length: 3", "-d", "a=1", "http://h.example.com/plain"])
        XCTAssertTrue(given.stdout.contains("SignedHeaders=accept;content-length;content-type;host;x-amz-date, "), given.stdout)
    }

    /// A hand-written Host stays on every hop of a redirect chain to the same host, as curl's
    /// -L keeps it (the IP-direct login: the address in the URL, the name in Host), and follows
    /// the Location to another host; held to curl itself on the same chains.
    func testAHandWrittenHostStaysOnSameHostRedirects() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let server = try TestServer.shared()
        func received(_ bytes: [UInt8]) throws -> String {
            let echo = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            return "\(echo["method"] ?? "") \(echo["headers"] ?? "")"
        }
        let chains = ["/redirect/303?to=%2Fredirect%2F302%3Fto%3D%252Fecho",
                      "/redirect/302?to=http%3A%2F%2Flocalhost%3A\(server.httpPort)%2Fecho"]
        for chain in chains {
            let args = ["-s", "-L", "-A", "agent", "-H", "Host: api.example.com", "-d", "a=1", "\(server.base)\(chain)"]
            let ours = try PekitProcess.run(["request"] + args)
            XCTAssertEqual(ours.stderr, "")
            XCTAssertEqual(try received(ours.stdoutBytes), try received(try PekitProcess.output(of: "/usr/bin/curl", args)), chain)
        }
        let same = try PekitProcess.run(["request", "-s", "-L", "-H", "Host: api.example.com", "-d", "a=1", "\(server.base)\(chains[0])"])
        XCTAssertTrue(same.stdout.contains(#""headers": [["Host", "api.example.com"], "#) && same.stdout.contains(#""method": "GET""#), same.stdout)
    }

    /// curl's newer -w variables, as curl 7.88 writes them on the same response: %header{name},
    /// %{urlnum}, %{header_json}; %{json} holds the variables pekit knows; an unknown %word{…} is
    /// refused with its name.
    func testWriteOutsNewerVariablesAsCurlWritesThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let server = try TestServer.shared()
        let format = "%header{content-type}|%header{Server}|%header{nosuch}|%{urlnum}|%{header_json}"
        let url = "\(server.base)/echo"
        func withoutDates(_ text: String) -> String {
            text.replacingOccurrences(of: #""date":\["[^"]*"\]"#, with: "DATE", options: .regularExpression)
                .replacingOccurrences(of: #""content-length":\["[0-9]+"\]"#, with: "LENGTH", options: .regularExpression)
        }
        let args = ["-s", "-o", "/dev/null", "-w", format, url, "-o", "/dev/null", url]
        let ours = try PekitProcess.run(["request"] + args)
        XCTAssertEqual(ours.stderr, "")
        let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", args), as: UTF8.self)
        XCTAssertEqual(withoutDates(ours.stdout), withoutDates(theirs))
        XCTAssertTrue(ours.stdout.hasPrefix("application/json|pekit-test-server||0|{\"server\":[\"pekit-test-server\"],\n"), ours.stdout)
        let json = try PekitProcess.run(["request", "-s", "-o", "/dev/null", "-w", "%{json}", url])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["http_code"] as? Int, 200)
        XCTAssertEqual(object["url_effective"] as? String, url)
        XCTAssertEqual(object["urlnum"] as? Int, 0)
        XCTAssertEqual(object["filename_effective"] as? String, "/dev/null")
        XCTAssertEqual(Array(object.keys).sorted(), ["content_type", "filename_effective", "http_code", "http_version", "local_ip", "local_port", "method",
                                                     "num_connects", "num_headers", "num_redirects", "redirect_url", "referer", "remote_ip", "remote_port",
                                                     "response_code", "scheme", "size_download", "size_header", "size_request", "size_upload",
                                                     "speed_download", "speed_upload", "ssl_verify_result", "time_appconnect", "time_connect",
                                                     "time_namelookup", "time_pretransfer", "time_redirect", "time_starttransfer", "time_total",
                                                     "url_effective", "urlnum"])
        XCTAssertTrue(object["referer"] is NSNull, "no Referer: null, as curl writes it")
        // Each of them is one of curl's (its %{json} of the same request).
        let curls = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{json}", url]))) as? [String: Any])
        XCTAssertEqual(Set(object.keys).subtracting(curls.keys), [])
        let bad = try PekitProcess.run(["request", "-w", "%date{x}", url])
        XCTAssertEqual(bad.stderr, "pekit request: -w: unknown %date{…} (known: %{variable} and %header{name}) (see 'pekit request --help')\n")
        XCTAssertEqual(bad.status, 2)
    }

    /// A host's forbidden code point is pointed at where it was written, counted in code points.
    func testURLErrorsPointAtTheCodePoint() throws {
        for (url, at) in [("http://exa mple.com/", 11), ("http://例子 .com/", 10), ("http://u:p@a b:80/", 13), ("http://a<b", 9)] {
            let r = try PekitProcess.run(["url", "parse", url])
            XCTAssertTrue(r.stderr.hasSuffix("(at code point \(at))\n"), "\(url): \(r.stderr)")
        }
    }

    /// `--as` compares what each server receives: an order-only difference is said as that.
    func testAsComparesPairsNotPlaces() throws {
        XCTAssertEqual(try PekitProcess.run(["query", "--as", "afnetworking,php", #"{"b":"x","a":"y"}"#]).stdout,
                       "afnetworking  a=y&b=x\nphp           b=x&a=y\n              (the same pairs, in another order)\n")
        XCTAssertEqual(try PekitProcess.run(["query", "--as", "afnetworking,rack", #"{"b":"x y","a":["1"]}"#]).stdout,
                       "afnetworking  a%5B%5D=1&b=x%20y\nrack          b=x+y&a[]=1\n              ^^^^^\n")
    }

    /// Braces, '|' and '^' in a query go as written (WHATWG's query set, as curl and browsers send
    /// them): curl's request line and pekit's are the same bytes.
    func testBracesInAQueryGoAsWritten() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let (server, port) = try RequestCommandTests.startEcho(requests: 4)
        defer { server.terminate() }
        for url in ["http://127.0.0.1:\(port)/s?q=\\{x\\}", "http://127.0.0.1:\(port)/s?q=a|b^c&r=%7B"] {
            let ours = try PekitProcess.run(["request", "-s", "-A", "a", url])
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-A", "a", url])
            XCTAssertEqual(ours.stdout, String(decoding: theirs, as: UTF8.self))
        }
        XCTAssertEqual(try firstLine(["http://h/s?q=\\{x\\}"]), "GET /s?q={x} HTTP/1.1")
    }

    /// Numbers are written as each policy's language writes them (qs: JavaScript's String(),
    /// python-requests: Python's str()), from Lua and from the command line alike.
    func testPoliciesWriteNumbersInTheirLanguage() throws {
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "qs", #"{"g":1e20,"h":0.000001,"i":1e-7}"#]).stdout, "g=100000000000000000000&h=0.000001&i=1e-7\n")
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "python-requests", #"{"g":1e20,"h":0.000001,"i":3.0}"#]).stdout, "g=1e%2B20&h=1e-06&i=3.0\n")
        XCTAssertEqual(try PekitProcess.run(["run", "-e", "print(pekit.query.encode({g = 1e20, n = 7}, 'qs'))"]).stdout, "g=100000000000000000000&n=7\n")
        XCTAssertEqual(try firstLine(["--policy", "qs", "--param-json", "g=1e20", "http://h/"]), "GET /?g=100000000000000000000 HTTP/1.1")
        // AFNetworking and Alamofire write NSNumber's description: %0.16g on Apple's platforms.
        for policy in ["afnetworking", "alamofire"] {
            XCTAssertEqual(try PekitProcess.run(["query", "--policy", policy, #"{"a":3.0,"b":0.30000000000000004,"c":1e20,"d":12345678901234567890}"#]).stdout,
                           "a=3&b=0.3&c=1e%2B20&d=12345678901234567890\n", policy)
        }
        // PHP's http_build_query (precision 14), as php 8.2 printed it for the same input.
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "php", #"{"c":1e20,"d":1e-7,"e":12345678901234567890,"g":0.3333333333333333}"#]).stdout,
                       "c=1.0E%2B20&d=1.0E-7&e=1.2345678901235E%2B19&g=0.33333333333333\n")
    }

    /// JSON integers are exact whatever their size: requests writes every digit (as Python's
    /// urlencode does), qs the double JavaScript's JSONText.parse holds; a JSON body keeps them.
    func testJSONIntegersStayExact() throws {
        let big = #"{"e":12345678901234567890,"n":-99999999999999999999999}"#
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "python-requests", big]).stdout, "e=12345678901234567890&n=-99999999999999999999999\n")
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "qs", big]).stdout, "e=12345678901234567000&n=-1e%2B23\n")
        XCTAssertEqual(try firstLine(["--policy", "python-requests", "--param-json", "e=12345678901234567890", "http://h/"]), "GET /?e=12345678901234567890 HTTP/1.1")
        let body = try PekitProcess.run(["request", "--json", #"{"id":123456789012345678901234567890}"#, "http://h/"]).stdout
        XCTAssertTrue(body.hasSuffix("\r\n\r\n" + #"{"id":123456789012345678901234567890}"#), body)
    }

    /// The help documents `\n` and `\t` as the two characters they are typed with.
    func testHelpShowsEscapesAsTyped() throws {
        let help = try PekitProcess.run(["request", "--help"]).stdout
        XCTAssertTrue(help.contains(#"\n \t \\ %% (an unknown variable"#), help)
        XCTAssertFalse(help.contains("\t"))
    }

    /// Field values are bytes, as curl sends them: `-H $'X-A: caf\xe9'` puts the byte E9 on the
    /// wire (not U+FFFD), from the command line, Lua, import and the --curl rendering alike.
    func testHeaderValuesAreBytes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let (server, port) = try RequestCommandTests.startEcho(requests: 6)
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(port)/h"
        let pekit = PekitProcess.binary.path
        func sh(_ command: String) throws -> [UInt8] { try PekitProcess.output(of: "/bin/bash", ["-c", command, pekit, url]) }
        let expected: [UInt8] = Array("X-A: caf".utf8) + [0xE9, 0x0D, 0x0A] + Array("X-B:".utf8) + [0xFF, 0x0D, 0x0A]
        func fields(_ bytes: [UInt8]) -> [UInt8] {
            guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: Array("X-A:".utf8)) }) else { return [] }
            return Array(bytes[start..<min(bytes.count, start + expected.count)])
        }
        let preview = try sh(#""$0" request -H $'X-A: caf\xe9' -H $'X-B:\xff' "$1""#)
        XCTAssertEqual(fields(preview), expected, String(decoding: preview, as: UTF8.self))
        let sent = try sh(#""$0" request --send -H $'X-A: caf\xe9' -H $'X-B:\xff' "$1""#)
        XCTAssertEqual(fields(sent), expected)
        let byCurl = try sh(#"curl -s -H $'X-A: caf\xe9' -H $'X-B:\xff' "$1""#)
        XCTAssertEqual(fields(byCurl), expected, "curl itself")
        let rendered = try sh(#"eval "$("$0" request --curl -H $'X-A: caf\xe9' -H $'X-B:\xff' "$1")""#)
        XCTAssertEqual(fields(rendered), expected, "the --curl rendering")
        let fromLua = try sh(#""$0" run -e "io.write(pekit.request{url = '$1', headers = { {'X-A', 'caf\xe9'}, 'X-B:\xff' }}:send().body)""#)
        XCTAssertEqual(fields(fromLua), expected, "pekit.request")
        let script = try sh(#""$0" import curl "curl -H \$'X-A: caf\\xe9' -H \$'X-B:\\xff' '$1'" | "$0" run -"#)
        XCTAssertEqual(fields(script), expected, "the script import curl prints")
    }

    /// Issue 73: the sizes, counts and checks -w writes are curl's for the same transfers (a
    /// POST, a redirect followed, TLS); the times have curl's form (six decimals).
    func testWriteOutSizesAndCountsAreCurls() throws {
        let server = try TestServer.shared()
        let format = "%{size_request} %{size_upload} %{ssl_verify_result} %{num_connects} %{num_redirects} %{referer}|%{time_pretransfer} %{time_redirect}"
        let tls = ["--cacert", server.cacert, "--resolve", "api.example.test:\(server.httpsPort):127.0.0.1"]
        for args in [["-d", "abc=1", "\(server.base)/echo"], ["-L", "-e", ";auto", "\(server.base)/redirect/302?to=/redirect/301%3Fto%3D/echo"],
                     tls + ["https://api.example.test:\(server.httpsPort)/echo"]] {
            let all = ["-s", "-o", "/dev/null", "-A", "x/1", "-w", format] + args
            let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", all), as: UTF8.self)
            let ours = try PekitProcess.run(["request"] + all)
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(ours.stdout.split(separator: "|").first, theirs.split(separator: "|").first, "\(args)")
            XCTAssertNotNil(ours.stdout.range(of: #"\|\d+\.\d{6} \d+\.\d{6}$"#, options: .regularExpression), ours.stdout)
        }
    }
}
