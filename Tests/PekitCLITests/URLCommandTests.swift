import Foundation
import XCTest

/// `pekit url parse | resolve | host`, run as a user would.
final class URLCommandTests: XCTestCase {
    func testParse() throws {
        let r = try PekitProcess.run("url", "parse", "HTTP://user@例子.中国:80/a b/../c?q=汉#top", "x", "--base", "http://h/d/")
        XCTAssertEqual(r.stdout, """
            {"href":"http://user@xn--fsqu00a.xn--fiqs8s/c?q=%E6%B1%89#top","origin":"http://xn--fsqu00a.xn--fiqs8s","protocol":"http:","username":"user","password":"","host":"xn--fsqu00a.xn--fiqs8s","hostname":"xn--fsqu00a.xn--fiqs8s","port":"","pathname":"/c","search":"?q=%E6%B1%89","hash":"#top"}
            {"href":"http://h/d/x","origin":"http://h","protocol":"http:","username":"","password":"","host":"h","hostname":"h","port":"","pathname":"/d/x","search":"","hash":""}

            """)
        XCTAssertEqual(r.status, 0)
        let bad = try PekitProcess.run("url", "parse", "http://h:99999/", "https://ok/")
        XCTAssertEqual(bad.stderr, "pekit url parse: argument 1 (http://h:99999/): the port is over 65535 (at code point 15)\n")
        XCTAssertEqual(bad.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(bad.status, 1)
    }

    func testResolveAndHost() throws {
        let r = try PekitProcess.run("url", "resolve", "https://example.com/a/b", "../c", "//cdn.example/x", "?page=2")
        XCTAssertEqual(r.stdout, "https://example.com/c\nhttps://cdn.example/x\nhttps://example.com/a/b?page=2\n")
        let h = try PekitProcess.run("url", "host", "www.例子.中国", "xn--fa-hia.de", "0x7F.1", "[2001:DB8:0::1]")
        XCTAssertEqual(h.stdout, "www.xn--fsqu00a.xn--fiqs8s\twww.例子.中国\nxn--fa-hia.de\tfaß.de\n127.0.0.1\t127.0.0.1\n[2001:db8::1]\t[2001:db8::1]\n")
        let json = try PekitProcess.run("url", "host", "--json", "☃.net")
        XCTAssertEqual(json.stdout, #"{"input":"☃.net","ascii":"xn--n3h.net","unicode":"☃.net"}"# + "\n")
        let usage = try PekitProcess.run("url", "frob")
        XCTAssertEqual(usage.stderr, "pekit url: unknown action 'frob': parse, resolve or host (see 'pekit url --help')\n")
        XCTAssertEqual(usage.status, 2)
    }
}
