import XCTest
@testable import PekitLua
@testable import PekitTools

/// Tab completion in the REPL: names from the session, raw (no metamethod runs), and the names
/// string arguments take.
final class ReplCompletionTests: XCTestCase {
    func testNamesFieldsAndMethods() throws {
        let repl = LuaREPL(runtime: try makeRuntime())
        func complete(_ line: String, word: String? = nil) -> [String] {
            let w = word ?? String(line.split(whereSeparator: { " (,={".contains($0) }).last ?? "")
            return repl.completions(word: w, before: line)
        }
        XCTAssertEqual(complete("pekit.q"), ["pekit.query."])
        XCTAssertEqual(complete("pekit.query.en"), ["pekit.query.encode("])
        XCTAssertEqual(complete("pek"), ["pekit."])
        XCTAssertEqual(complete("x = pekit.url.do"), ["pekit.url.domain_to_ascii(", "pekit.url.domain_to_unicode("])
        XCTAssertEqual(complete("whi"), ["while"])
        _ = repl.feed("jar = pekit.cookies.jar()")
        XCTAssertEqual(complete("jar:re"), ["jar:receive("])
        XCTAssertEqual(complete("jar:").count, 13)
        _ = repl.feed(#"u = pekit.url.parse("http://h/")"#)
        XCTAssertEqual(complete("u:"), ["u:copy(", "u:fields(", "u:resolve("])
        // Raw: an __index function is never called to find names.
        _ = repl.feed("trap = setmetatable({}, {__index = function() error('ran') end})")
        XCTAssertEqual(complete("trap.x"), [])
        XCTAssertEqual(complete("nosuch.x"), [])
    }

    func testNamesInsideStrings() throws {
        let repl = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(repl.completions(word: "afn", before: #"pekit.encode("a b", "afn"#), [#"afnetworking""#])
        XCTAssertEqual(repl.completions(word: "rf", before: #"pekit.query.encode(t, 'rf"#), ["rfc3986'"])
        XCTAssertEqual(repl.completions(word: "ra", before: #"pekit.query.decode(s, {server = "ra"#), [#"rack""#])
        XCTAssertEqual(repl.completions(word: "http", before: #"pekit.cookies.jar{filter = "http"#), [#"httpdns""#])
        XCTAssertEqual(repl.completions(word: "a", before: #"print("a"#), [], "no names where no name is taken")
    }
}
