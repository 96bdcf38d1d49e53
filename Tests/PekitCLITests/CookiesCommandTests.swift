import Foundation
import PekitTestSupport
import XCTest

final class CookiesCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("cookies")
    }

    func run(_ args: String...) throws -> PekitResult { try PekitProcess.run(Array(args), directory: directory) }

    /// Issue 71: a cookie from an address that names a domain is refused with the two ways to
    /// keep it as the name's (the URL with the name and `--connect`, or the httpdns filter), as
    /// `pekit request` points to them; and `--filter NAME:KEY=VALUE` hands the plugin typed
    /// values, as `query --set` reads them (`false` is false, `3` a number).
    func testAnAddressCookieHintAndTypedFilterOptions() throws {
        let directory = try makeTemporaryDirectory("pekit-cookies-hint")
        let r = try PekitProcess.run(["cookies", "receive", "j.txt", "http://203.0.113.7/", "sid=1; Domain=example.com"], directory: directory)
        XCTAssertEqual(r.stdout, """
            rejected sid: Domain=example.com does not match the host 203.0.113.7: an IP address takes no Domain attribute but itself
            hint     the response came from the address 203.0.113.7: to keep the cookie as example.com's, put the name in the URL and the address apart (pekit request --connect example.com:80=203.0.113.7:80 http://example.com/…), or map the address with the httpdns filter: --filter 'httpdns:hosts=203.0.113.7=example.com'

            """)
        // The filter the hint names does what it says.
        let mapped = try PekitProcess.run(["cookies", "receive", "--filter", "httpdns:hosts=203.0.113.7=example.com", "j.txt", "http://203.0.113.7/", "sid=1; Domain=example.com"], directory: directory)
        XCTAssertTrue(mapped.stdout.hasPrefix("stored   sid=1  domain=example.com"), mapped.stdout + mapped.stderr)

        let plugins = directory.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try #"""
            return { name = "typed", kind = "cookie-filter", description = "accepts only when its options came typed",
              new = function(o)
                local ok = o.strict == false and math.type(o.max) == "integer" and o.name == "x" and o.hosts.a == 1 and #o.list == 2
                return { accept = function() return ok end }
              end }
            """#.write(to: plugins.appendingPathComponent("typed.lua"), atomically: true, encoding: .utf8)
        let typed = try PekitProcess.run(["cookies", "receive", "--plugins", plugins.path, "--filter", "typed:strict=false,max=3,name=x,hosts=a=1,list=1,list=true",
                                          "t.txt", "http://h.example/", "a=1"], directory: directory)
        XCTAssertTrue(typed.stdout.hasPrefix("stored   a=1"), typed.stdout + typed.stderr)
    }

    func testReceiveHeaderListExplainDelete() throws {
        // The clock in 2038, so the Expires (2038-06-09) is within the 400 days a cookie is kept.
        let receive = try run("cookies", "receive", "jar.txt", "https://www.example.com/a/b", "sid=1; Domain=example.com; Secure; HttpOnly; Expires=Wed, 09 Jun 2038 10:18:14 GMT",
                              "lang=zh; Path=/", "x=1; Domain=com", "--now", "2150000000")
        XCTAssertEqual(receive.stdout, """
            stored   sid=1  domain=example.com path=/a  Secure HttpOnly expires 2038-06-09T10:18:14Z
            stored   lang=zh  domain=www.example.com path=/  host-only session
            rejected x: Domain=com is a public suffix

            """)
        XCTAssertEqual(receive.status, 0)
        XCTAssertEqual(try run("cookies", "header", "jar.txt", "https://www.example.com/a/x", "--now", "2150000000").stdout, "sid=1; lang=zh\n", "the session cookie was kept in the file")
        XCTAssertEqual(try run("cookies", "header", "jar.txt", "https://other.com/", "--now", "2150000000").stdout, "")
        XCTAssertEqual(try run("cookies", "explain", "jar.txt", "http://www.example.com/a/", "--now", "2150000000").stdout,
                       "not sent sid=1  secure: only sent over https (or loopback)\nsent     lang=zh  sent: host-only cookie for www.example.com, path / matches /a/\n")
        XCTAssertEqual(try run("cookies", "delete", "jar.txt", "https://www.example.com/", "lang", "--now", "2150000000").stdout, "1\n")
        XCTAssertEqual(try run("cookies", "list", "jar.txt", "--now", "2150000000").stdout, "sid=1  domain=example.com path=/a  Secure HttpOnly expires 2038-06-09T10:18:14Z\n")
        let file = try String(contentsOf: directory.appendingPathComponent("jar.txt"), encoding: .utf8)
        XCTAssertTrue(file.hasSuffix("#HttpOnly_.example.com\tTRUE\t/a\tTRUE\t2159691494\tsid\t1\n"), file)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("jar.txt.tmp").path), "renamed into place")
    }

    /// Issue 43: the context of a response and of a request (`--site`): a cross-site response
    /// cannot set a SameSite=Lax or Strict cookie; a cross-site request does not send them.
    /// Issue 68: an expiry before any date there is (-1e308, from a JSON jar) was listed as
    /// "expires never", though the cookie is not sent: it is listed as expired.
    func testAnExpiryPastAnyDateIsExpiredNotNever() throws {
        let cookie = #"{"name":"a","value":"1","domain":"example.com","path":"/","creation":1,"last_access":1,"host_only":true,"secure":false,"http_only":false,"same_site":null,"partitioned":false"#
        try (#"{"pekit_cookies":1,"cookies":["# + cookie + #","expires":-1e308}]}"#)
            .write(to: directory.appendingPathComponent("far.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try run("cookies", "list", "far.json").stdout, "a=1  domain=example.com path=/  host-only expired\n")
        XCTAssertEqual(try run("cookies", "explain", "far.json", "http://example.com/").stdout, "not sent a=1  expired\n")
    }

    func testSiteContext() throws {
        let stored = try run("cookies", "receive", "--site", "cross-site", "site.txt", "https://a.example/", "l=1; SameSite=Lax", "n=1; SameSite=None; Secure", "foo")
        XCTAssertEqual(stored.stdout, """
            stored   n=1  domain=a.example path=/  host-only Secure SameSite=None session
            stored   foo  domain=a.example path=/  host-only session
            rejected l: a SameSite=Lax cookie cannot be set by a response in a cross-site context (only by a same-site one or a top-level navigation)

            """)
        _ = try run("cookies", "receive", "site.txt", "https://a.example/", "s=1; SameSite=Strict", "x=1; SameSite=Lax")
        XCTAssertEqual(try run("cookies", "header", "site.txt", "https://a.example/").stdout, "n=1; foo; s=1; x=1\n")
        XCTAssertEqual(try run("cookies", "header", "--site", "cross-site-navigation", "site.txt", "https://a.example/").stdout, "n=1; foo; x=1\n")
        XCTAssertEqual(try run("cookies", "header", "--site", "cross-site", "site.txt", "https://a.example/").stdout, "n=1; foo\n")
    }

    /// The context from the page a request is for (RFC 6265bis §5.2): --site-for-cookies and
    /// --navigation on both commands, site_for_cookies, navigation and method in Lua, and
    /// --same-site / --cross-site as short forms; a context given twice is a usage error.
    func testSiteForCookies() throws {
        _ = try run("cookies", "receive", "sfc.txt", "https://api.example.com/", "s=1; SameSite=Strict", "l=1; SameSite=Lax", "n=1; SameSite=None; Secure")
        func header(_ flags: String...) throws -> String { try PekitProcess.run(["cookies", "header"] + flags + ["sfc.txt", "https://api.example.com/"], directory: directory).stdout }
        XCTAssertEqual(try header("--site-for-cookies", "https://www.example.com/app"), "s=1; l=1; n=1\n")
        XCTAssertEqual(try header("--site-for-cookies", "https://evil.test/"), "n=1\n")
        XCTAssertEqual(try header("--site-for-cookies", "https://evil.test/", "--navigation"), "l=1; n=1\n")
        XCTAssertEqual(try header("--cross-site", "--navigation"), "l=1; n=1\n")
        XCTAssertEqual(try header("--cross-site"), "n=1\n")
        XCTAssertEqual(try header("--same-site"), "s=1; l=1; n=1\n")
        let both = try run("cookies", "header", "--same-site", "--cross-site", "sfc.txt", "https://api.example.com/")
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderr, "pekit cookies: give one of --site, --same-site, --cross-site and --site-for-cookies (see 'pekit cookies --help')\n")
        XCTAssertEqual(try run("cookies", "header", "--navigation", "sfc.txt", "https://api.example.com/").stderr,
                       "pekit cookies: --navigation goes with --cross-site or --site-for-cookies URL (see 'pekit cookies --help')\n")
        // pekit request judges with its own method: a POST navigation from another site sends no Lax cookie.
        let post = try run("request", "--jar", "sfc.txt", "--site-for-cookies", "https://evil.test/", "--navigation", "-X", "POST", "https://api.example.com/")
        XCTAssertTrue(post.stdout.contains("\r\nCookie: n=1\r\n"), post.stdout)
        let get = try run("request", "--jar", "sfc.txt", "--site-for-cookies", "https://evil.test/", "--navigation", "https://api.example.com/")
        XCTAssertTrue(get.stdout.contains("\r\nCookie: l=1; n=1\r\n"), get.stdout)
        let lua = try run("run", "-e", #"""
            local jar = pekit.cookies.jar()
            jar:receive("https://api.example.com/", { "l=1; SameSite=Lax", "x=1; SameSite=Strict" })
            local page = "https://evil.test/"
            print(jar:header("https://api.example.com/", { site_for_cookies = page, navigation = true }))
            print(jar:header("https://api.example.com/", { site_for_cookies = page, navigation = true, method = "POST" }))
            print(jar:receive("https://api.example.com/", "y=1; SameSite=Lax", { site_for_cookies = page }).rejected[1].rule)
            print(#jar:receive("https://api.example.com/", "y=1; SameSite=Lax", { site_for_cookies = page, navigation = true, method = "POST" }).stored)
            print(pcall(jar.header, jar, "https://api.example.com/", { site_for_cookies = page, same_site = "cross-site" }))
            -- A request table takes the same context, for the Cookie field it previews and sends.
            local function cookie(t) return pekit.request(t):raw():match("Cookie: ([^\r]*)") end
            print(cookie{ url = "https://api.example.com/", jar = jar, site_for_cookies = page, navigation = true })
            print(cookie{ url = "https://api.example.com/", method = "POST", jar = jar, site_for_cookies = page, navigation = true })
            print(cookie{ url = "https://api.example.com/", jar = jar, same_site = "cross-site" })
            """#)
        XCTAssertEqual(lua.stdout, """
            l=1
            nil
            samesite-cross-site
            1
            false\tjar.header: bad argument #3 (field "site_for_cookies": give same_site or site_for_cookies, not both)
            l=1; y=1
            nil
            nil

            """, lua.stderr)
    }

    /// An attribute over 1,024 bytes is ignored, and said so: a warning line from pekit cookies,
    /// a `warnings` list from jar:receive, each naming its rule.
    func testIgnoredAttributesAreWarnings() throws {
        let long = "a=1; Path=/" + String(repeating: "x", count: 1030)
        XCTAssertEqual(try run("cookies", "receive", "warn.txt", "http://w.example/d/p", long).stdout, """
            stored   a=1  domain=w.example path=/d  host-only session
            warning  a: attribute-too-long: the Path attribute's value is over 1024 bytes: ignored

            """)
        let lua = try run("run", "-e", """
            local r = pekit.cookies.jar():receive("http://w.example/d/p", "\(long)")
            print(#r.stored, #r.rejected, r.warnings[1].name, r.warnings[1].rule, r.warnings[1].reason)
            print(#pekit.cookies.jar():receive("http://w.example/", "b=1").warnings)
            """)
        XCTAssertEqual(lua.stdout, "1\t0\ta\tattribute-too-long\tthe Path attribute's value is over 1024 bytes: ignored\n0\n", lua.stderr)
    }

    /// CHIPS from the command line and Lua: --top-level (top_level) keeps a partitioned cookie
    /// under the top-level page's site, and sends it only there; pekit request takes it too.
    func testTopLevelPartitions() throws {
        XCTAssertEqual(try run("cookies", "receive", "--top-level", "https://a.example/", "chips.txt", "https://w.example/", "w=1; Secure; Partitioned; Path=/").stdout,
                       "stored   w=1  domain=w.example path=/  host-only Secure Partitioned(https://a.example) session\n")
        XCTAssertEqual(try run("cookies", "header", "--top-level", "https://www.a.example/x", "chips.txt", "https://w.example/").stdout, "w=1\n")
        XCTAssertEqual(try run("cookies", "header", "--top-level", "https://b.example/", "chips.txt", "https://w.example/").stdout, "")
        let preview = try run("request", "--jar", "chips.txt", "--top-level", "https://a.example/", "https://w.example/")
        XCTAssertTrue(preview.stdout.contains("\r\nCookie: w=1\r\n"), preview.stdout)
        XCTAssertFalse(try run("request", "--jar", "chips.txt", "https://w.example/").stdout.contains("Cookie:"))
        let lua = try run("run", "-e", #"""
            local jar = pekit.cookies.jar{ public_suffixes = false }
            jar:receive("https://w.example/", "w=1; Secure; Partitioned", { top_level = "https://a.example/" })
            print(jar:header("https://w.example/", { top_level = "https://a.example/" }), jar:header("https://w.example/", { top_level = "https://b.example/" }))
            print(jar:all()[1].partition_key)
            """#)
        XCTAssertEqual(lua.stdout, "w=1\tnil\nhttps://a.example\n", lua.stderr)
    }

    /// Bytes stay bytes (issue 43): a value that is not UTF-8 comes back from Lua's jar:header,
    /// jar:all and pekit cookies header as it came.
    func testValueBytesStay() throws {
        let script = #"local jar = pekit.cookies.jar() jar:receive("http://a.example/", "c=\xFFt\xFF") io.write(jar:header("http://a.example/"), "|", jar:all()[1].value)"#
        XCTAssertEqual(try PekitProcess.output(of: PekitProcess.binary.path, ["run", "-e", script]), Array("c=".utf8) + [0xFF, 0x74, 0xFF, 0x7C, 0xFF, 0x74, 0xFF])
        let jar = directory.appendingPathComponent("bytes.txt").path
        _ = try PekitProcess.output(of: "/bin/bash", ["-c", #""$0" cookies receive "$1" http://a.example/ $'c=\xFFt'"#, PekitProcess.binary.path, jar])
        XCTAssertEqual(try PekitProcess.output(of: PekitProcess.binary.path, ["cookies", "header", jar, "http://a.example/"]), Array("c=".utf8) + [0xFF, 0x74, 0x0A])
    }

    /// pekit.http's send options give the jar's context (same_site, site_for_cookies, navigation, top_level) for every hop.
    func testSendOptionsCarryTheCookieContext() throws {
        let server = try TestServer.shared()
        let script = #"""
            local jar = pekit.cookies.jar()
            local url = arg[1] .. "/cookies"
            jar:receive(url, { "p=1; Secure; Partitioned; Path=/", "l=1; SameSite=Lax; Path=/" }, { top_level = "https://a.example/" })
            for _, o in ipairs({ {}, { top_level = "https://a.example/" }, { top_level = "https://a.example/", same_site = "cross-site" } }) do
              o.jar = jar
              print(pekit.http.get(url, o):json().cookie)
            end
            """#
        let file = directory.appendingPathComponent("context.lua").path
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try run("run", file, server.base)
        XCTAssertEqual(r.stdout, "l=1\np=1; l=1\np=1\n", r.stderr)
    }

    func testClockFiltersAndErrors() throws {
        _ = try run("cookies", "receive", "jar.json", "http://203.0.113.7/", "s=1; Max-Age=100", "--filter", "rfc6265", "--now", "1000")
        XCTAssertEqual(try run("cookies", "header", "jar.json", "http://203.0.113.7/", "--now", "1050").stdout, "s=1\n")
        XCTAssertEqual(try run("cookies", "header", "jar.json", "http://203.0.113.7/", "--now", "1101").stdout, "", "expired by the clock")
        XCTAssertTrue(try String(contentsOf: directory.appendingPathComponent("jar.json"), encoding: .utf8).hasPrefix(#"{"pekit_cookies":1,"cookies":[{"name":"s""#))
        let usage = try run("cookies", "header", "jar.txt")
        XCTAssertEqual(usage.stderr, "pekit cookies: header needs JAR URL (see 'pekit cookies --help')\n")
        XCTAssertEqual(usage.status, 2)
        let badURL = try run("cookies", "header", "jar.txt", "notaurl")
        XCTAssertEqual(badURL.stderr, "pekit cookies: invalid URL \"notaurl\": expected scheme://host\n")
        XCTAssertEqual(badURL.status, 1)
        try "garbage line\n.ok.com\tTRUE\t/\tFALSE\t0\tn\tv\n".write(to: directory.appendingPathComponent("broken.txt"), atomically: true, encoding: .utf8)
        let broken = try run("cookies", "list", "broken.txt")
        XCTAssertEqual(broken.stderr, "pekit cookies: warning: broken.txt:1: expected 7 tab-separated fields, found 1; line skipped\n")
        XCTAssertEqual(broken.stdout, "n=v  domain=ok.com path=/  session\n")
    }

    /// The command is Swift over PekitCore: its errors are one line, never a Lua traceback, and
    /// every cookie command reads the list PEKIT_PUBLIC_SUFFIX_LIST names.
    func testErrorsAreOneLineAndTheSuffixListIsTheEnvironments() throws {
        let noFilter = try run("cookies", "header", "jar.txt", "http://x.example/", "--filter", "nosuch")
        XCTAssertTrue(noFilter.stderr.hasPrefix("pekit cookies: --filter: no plugin \"nosuch\" (looked for nosuch.lua in: "), noFilter.stderr)
        XCTAssertFalse(noFilter.stderr.contains("traceback"))
        XCTAssertEqual(noFilter.status, 1)
        let badNow = try run("cookies", "header", "jar.txt", "http://x.example/", "--now", "nan")
        XCTAssertEqual(badNow.stderr, "pekit cookies: --now takes seconds since 1970, not 'nan' (see 'pekit cookies --help')\n")
        try "example\n".write(to: directory.appendingPathComponent("psl.dat"), atomically: true, encoding: .utf8)
        let env = ["PEKIT_PUBLIC_SUFFIX_LIST": directory.appendingPathComponent("psl.dat").path]
        // With a list where "example" is a public suffix, Domain=example is refused; with Debian's, "com" is.
        let own = try PekitProcess.run(["cookies", "receive", "j.txt", "http://a.example/", "x=1; Domain=example"], directory: directory, environment: env)
        XCTAssertEqual(own.stdout, "rejected x: Domain=example is a public suffix\n")
        let missing = try PekitProcess.run(["cookies", "receive", "j.txt", "http://a.example/", "y=1"], directory: directory,
                                           environment: ["PEKIT_PUBLIC_SUFFIX_LIST": "/nonexistent/list.dat"])
        XCTAssertEqual(missing.stderr, "pekit cookies: cannot read the public suffix list at /nonexistent/list.dat: No such file or directory (name a readable list with PEKIT_PUBLIC_SUFFIX_LIST)\n")
        XCTAssertEqual(missing.status, 1)
        // Reading a jar (header, list, explain, delete) does not need the list.
        XCTAssertEqual(try PekitProcess.run(["cookies", "header", "j.txt", "http://a.example/"], directory: directory,
                                            environment: ["PEKIT_PUBLIC_SUFFIX_LIST": "/nonexistent/list.dat"]).status, 0)
        let request = try PekitProcess.run(["request", "--jar", "j.txt", "http://a.example/"], directory: directory,
                                           environment: ["PEKIT_PUBLIC_SUFFIX_LIST": "/nonexistent/list.dat"])
        XCTAssertTrue(request.stderr.contains("cannot read the public suffix list at /nonexistent/list.dat"), "request --jar honours it too: \(request.stderr)")
    }

    /// Every value given gets a line: an expired one says so, and whether it deleted a stored
    /// cookie; a pasted "Set-Cookie:" field name is dropped, with a note.
    func testExpiredAndPastedValues() throws {
        let first = try run("cookies", "receive", "e.txt", "http://x.example/", "a=1", "Set-Cookie: b=2", "gone=1; Max-Age=0")
        XCTAssertEqual(first.stdout, "stored   a=1  domain=x.example path=/  host-only session\nstored   b=2  domain=x.example path=/  host-only session\nexpired  gone (no stored cookie to delete)\n")
        XCTAssertEqual(first.stderr, "pekit cookies: note: \"Set-Cookie: b=2\" starts with the field name Set-Cookie:; the value after it is used\n")
        let second = try run("cookies", "receive", "e.txt", "http://x.example/", "a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(second.stdout, "expired  a (deleted the stored one)\n")
        XCTAssertEqual(try run("cookies", "header", "e.txt", "http://x.example/").stdout, "b=2\n")
    }

    /// Processes updating one jar at once merge: 40 concurrent receives keep all 40 cookies.
    func testConcurrentUpdatesKeepEveryCookie() throws {
        let processes = try (0..<40).map { i -> Process in
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = ["cookies", "receive", "conc.txt", "http://x.example/", "c\(i)=v"]
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        processes.forEach { $0.waitUntilExit() }
        XCTAssertEqual(processes.filter { $0.terminationStatus != 0 }.count, 0)
        let header = try run("cookies", "header", "conc.txt", "http://x.example/").stdout
        XCTAssertEqual(Set(header.dropLast().components(separatedBy: "; ")), Set((0..<40).map { "c\($0)=v" }))
        // The lock file goes with the lock: nothing is left beside the jar.
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("conc.txt.lock").path))
    }

    /// Filter options from the command line: KEY=VALUE (KEY=A=B for a map), or JSON; a filter that
    /// needs an option and got none is an error, not a filter that silently does nothing.
    func testFilterOptionsFromTheCommandLine() throws {
        let stored = try run("cookies", "receive", "f.txt", "http://203.0.113.7/", "a=1", "--filter", "httpdns:hosts=203.0.113.7=api.example.com")
        XCTAssertEqual(stored.stdout, "stored   a=1  domain=api.example.com path=/  host-only session\n", stored.stderr)
        XCTAssertEqual(try run("cookies", "header", "f.txt", "http://api.example.com/").stdout, "a=1\n")
        let bare = try run("cookies", "header", "f.txt", "http://api.example.com/", "--filter", "httpdns")
        XCTAssertEqual(bare.status, 1)
        XCTAssertTrue(bare.stderr.hasSuffix("new: httpdns needs the option hosts = { [\"IP\"] = \"name\" } (command line: --filter 'httpdns:hosts=IP=NAME')\n"), bare.stderr)
        let denied = try run("cookies", "receive", "f.txt", "http://h/", "_ga=1", "_gid=2", "b=3", "--filter", #"deny:{"names": ["^_ga$", "^_gid$"]}"#)
        XCTAssertEqual(denied.stdout.split(separator: "\n").sorted(), ["rejected _ga: refused by the filter \"deny\"", "rejected _gid: refused by the filter \"deny\"", "stored   b=3  domain=h path=/  host-only session"])
        XCTAssertEqual(try run("cookies", "receive", "f.txt", "http://h/", "_ga=1", "--filter", "deny:names=^_ga").stdout, "rejected _ga: refused by the filter \"deny\"\n")
        let bad = try run("cookies", "receive", "f.txt", "http://h/", "x=1", "--filter", "deny:names")
        XCTAssertEqual(bad.stderr, "pekit cookies: --filter: deny: options are KEY=VALUE separated by commas (or a JSON object), not \"names\"\n")
    }

    /// A file that is not a jar is someone's data: not replaced unless asked.
    func testAFileThatIsNotAJarIsNotReplaced() throws {
        let notes = directory.appendingPathComponent("notes.txt")
        try "notes\nmore notes\n".write(to: notes, atomically: true, encoding: .utf8)
        let r = try run("cookies", "receive", "notes.txt", "http://x.example/", "a=1")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasSuffix("pekit cookies: notes.txt does not look like a cookie jar (2 lines skipped, none loaded); not replacing it (--force replaces it)\n"), r.stderr)
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "notes\nmore notes\n")
        let forced = try run("cookies", "receive", "notes.txt", "http://x.example/", "a=1", "--force")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try run("cookies", "header", "notes.txt", "http://x.example/").stdout, "a=1\n")
    }

    /// A jar written by curl -c, against a real server on loopback, loads and matches.
    func testLoadsWhatCurlWrites() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let (server, portLine) = try Self.startCookieServer(["plain=1; Path=/", "secret=2; Path=/; HttpOnly", "dom=3; Domain=localhost; Path=/app; Max-Age=3600"], requests: 1)
        defer { server.terminate() }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", "/dev/null", "-c", directory.appendingPathComponent("curl.txt").path, "http://127.0.0.1:\(portLine)/"]
        try curl.run()
        curl.waitUntilExit()
        XCTAssertEqual(curl.terminationStatus, 0)
        let list = try run("cookies", "list", "curl.txt")
        XCTAssertEqual(list.stderr, "")
        XCTAssertEqual(list.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: #"expires \S+"#, with: "expires T", options: .regularExpression) }.sorted(),
                       ["plain=1  domain=127.0.0.1 path=/  host-only session", "secret=2  domain=127.0.0.1 path=/  host-only HttpOnly session"])
        // cookies.txt carries no creation times: equal paths come in the order curl wrote them.
        let header = try run("cookies", "header", "curl.txt", "http://127.0.0.1:9/x").stdout
        XCTAssertEqual(header.dropLast().components(separatedBy: "; ").sorted(), ["plain=1", "secret=2"])
    }

    /// Issue 30: `-c FILE` and `jar:save` do not replace a file that is not a jar (through a
    /// symbolic link neither) unless forced; files obey the rules received cookies obey, in the
    /// commands that never read the suffix list too; a short HMAC key is warned about once.
    func testFilesAreNotReplacedAndObeyTheRules() throws {
        let dir = try makeTemporaryDirectory("third")
        let (notes, link) = try makeNotesAndLink(in: dir)
        let (server, port) = try RequestCommandTests.startEcho(requests: 2)
        defer { server.terminate() }
        let refused = try PekitProcess.run(["request", "--send", "-c", link, "http://127.0.0.1:\(port)/"])
        XCTAssertEqual(refused.stderr, "pekit request: -c: \(link) does not look like a cookie jar (1 line skipped, none loaded); not replacing it (--force replaces it)\n")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        let lua = try PekitProcess.run(["run", "-e", "pekit.cookies.jar():save('\(link)')"])
        XCTAssertTrue(lua.stderr.hasPrefix("pekit: (command line):1: jar.save: \(link) does not look like a cookie jar (1 line skipped, none loaded); not replacing it ({force = true} replaces it)\n"), lua.stderr)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        let forced = try PekitProcess.run(["request", "--send", "--force", "-c", link, "http://127.0.0.1:\(port)/"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(try String(contentsOfFile: notes, encoding: .utf8).hasPrefix("# Netscape HTTP Cookie File"))

        let jar = dir.appendingPathComponent("bad.txt").path
        try ".com\tTRUE\t/\tFALSE\t2000000000\tsuper\t1\nwww.example.test\tFALSE\t/\tFALSE\t2000000000\t__Host-x\t1\nwww.example.test\tFALSE\t/\tFALSE\t2000000000\tok\t1\n"
            .write(toFile: jar, atomically: true, encoding: .utf8)
        let header = try PekitProcess.run(["cookies", "header", jar, "http://www.example.test/"])
        XCTAssertEqual(header.stdout, "ok=1\n")
        XCTAssertEqual(header.stderr, """
            pekit cookies: warning: \(jar):1: cookie "super": the domain com is a public suffix; line skipped
            pekit cookies: warning: \(jar):2: cookie "__Host-x": a __Host- cookie needs Secure, no Domain (host-only) and Path=/; line skipped

            """)
        XCTAssertEqual(try PekitProcess.run(["cookies", "header", jar, "http://bank.com/"]).stdout, "")

        let short = try PekitProcess.run(["run", "-e", "pekit.jwt.encode({a = 1}, 'secret') pekit.jwt.encode({a = 2}, 'secret')"])
        XCTAssertEqual(short.stderr, "pekit.jwt: warning: the HS256 key is 6 bytes, shorter than the 32 RFC 7518 §3.2 asks for\n")
    }

    /// A loopback server answering `requests` GETs with these Set-Cookie fields and no body;
    /// returns it and its port.
    static func startCookieServer(_ setCookies: [String], requests: Int) throws -> (Process, String) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", """
            import http.server, json, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200)
                    for value in json.loads(sys.argv[1]): self.send_header("Set-Cookie", value)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                def log_message(self, *a): pass
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            print(s.server_address[1], flush=True)
            for _ in range(int(sys.argv[2])): s.handle_request()
            """, String(decoding: try JSONSerialization.data(withJSONObject: setCookies), as: UTF8.self), String(requests)]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        return (server, String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
