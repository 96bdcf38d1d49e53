import Foundation
import XCTest
@testable import PekitCore

/// qs's fast path must give exactly what the faithful port gives: on every qs fixture, and on
/// random queries built from the pieces that make qs's merge irregular.
final class QSFastPathTests: XCTestCase {
    func both(_ parser: QSParser, _ query: ByteString) -> (fast: String, faithful: String) {
        func run() -> String {
            do { return String(decoding: JSONText.write(try parser.parse(query)), as: UTF8.self) } catch { return "error: \(error)" }
        }
        QSParser.faithfulOnly = false
        let fast = run()
        QSParser.faithfulOnly = true
        defer { QSParser.faithfulOnly = false }
        return (fast, run())
    }

    func testFastPathAgreesWithThePort() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "server-vectors", withExtension: "json", subdirectory: "Fixtures/servers"))
        guard case .array(let vectors) = try JSONText.parse(Data(contentsOf: url)) else { return XCTFail("not a list") }
        var queries: [(QSParser, ByteString)] = []
        for case .map(let vector) in vectors where vector["model"] == .text("qs") {
            guard case .string(let query)? = vector["query"], case .map(let options)? = vector["options"] else { continue }
            guard case .qs(let parser) = try QueryServerPeerTests.model("qs", options) else { continue }
            queries.append((parser, query))
        }
        // Found by this test's random run (CI, 2026-12-06): with allowDots, `a.x` and `a[x]` are two
        // keys to qs, merged (an empty value dropped), not combined; qs 6.11 (Debian's node-qs)
        // gives {"a]":"v","a":{"b":"v","x":""},"a[x":{"y":""}}.
        var dots = QSParser()
        dots.allowDots = true
        for query in ["a]=v&a.b=v&a.x&a[x[y]&a[x]", "a.x&a[x]", "a.x=1&a[x]=2", "a[x]&a[x]", "a.x&a.x"] { queries.append((dots, ByteString(query))) }
        XCTAssertEqual(both(dots, "a]=v&a.b=v&a.x&a[x[y]&a[x]").fast, #"{"a]":"v","a":{"b":"v","x":""},"a[x":{"y":""}}"#)
        // Random queries: brackets, indices, repeats, dots, escapes and prototype names.
        var rng = SystemRandomNumberGenerator()
        let atoms = ["a", "b", "0", "1", "21", "[", "]", "[]", "[0]", "[1]", "[x]", "[y]", ".", "=", "&", "&", "&", "%5B", "%5D",
                     "x", "%FF", "__proto__", "toString", "[25]", "+", "%2E"]
        let options: [(inout QSParser) -> Void] = [{ _ in }, { $0.allowDots = true }, { $0.strictNullHandling = true },
                                                   { $0.depth = 1 }, { $0.arrayLimit = 0 }, { $0.parseArrays = false }, { $0.allowSparse = true },
                                                   { $0.allowPrototypes = true }, { $0.parameterLimit = 3 }]
        for n in 0..<20_000 {
            var parser = QSParser()
            options[n % options.count](&parser)
            let query = (0..<Int.random(in: 1...16, using: &rng)).map { _ in atoms.randomElement(using: &rng)! }.joined()
            queries.append((parser, ByteString(query)))
        }
        // Random queries of whole parameters: shared key prefixes (the path the fast path keeps
        // from one parameter to the next), repeats, lists filled by index and by [].
        let names = ["a", "b", "a.b"], steps = ["[x]", "[y]", "[0]", "[1]", "[]", "[3]", "[x%5D", "%5By%5D"]
        for n in 0..<20_000 {
            var parser = QSParser()
            options[n % options.count](&parser)
            let query = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                names.randomElement(using: &rng)! + (0..<Int.random(in: 0...3, using: &rng)).map { _ in steps.randomElement(using: &rng)! }.joined()
                    + (Bool.random(using: &rng) ? "=v" : "")
            }.joined(separator: "&")
            queries.append((parser, ByteString(query)))
        }
        // Keys that extend a random prefix of the key before (the fast path keeps the segments
        // two keys share instead of finding them again), with brackets left open or closed out
        // of turn, so that a shared prefix may end inside a segment or before the first match.
        let pieces = ["[x]", "[y]", "[0]", "[1]", "[]", "[", "]", "[z", "x", "[x[y]", "%5B", "%5D", "."]
        for n in 0..<20_000 {
            var parser = QSParser()
            options[n % options.count](&parser)
            var previous = "a", parameters: [String] = []
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                var key = String(previous.prefix(Int.random(in: 0...previous.count, using: &rng)))
                if key.isEmpty { key = names.randomElement(using: &rng)! }
                key += (0..<Int.random(in: 0...3, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
                parameters.append(key + (Bool.random(using: &rng) ? "=v" : ""))
                previous = key
            }
            queries.append((parser, ByteString(parameters.joined(separator: "&"))))
        }
        var fastUsed = 0, failures: [String] = []
        for (parser, query) in queries {
            if parser.fastPathApplies, parser.fastParse(query.bytes) != nil { fastUsed += 1 }
            let (fast, faithful) = both(parser, query)
            if fast != faithful { failures.append("\(query): fast \(fast), faithful \(faithful)") }
        }
        XCTAssertGreaterThan(fastUsed, queries.count / 3, "the fast path should take ordinary inputs (and a third of these odd ones)")
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(30).joined(separator: "\n"))
    }
}
