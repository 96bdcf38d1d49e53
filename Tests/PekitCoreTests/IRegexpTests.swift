import PekitTestSupport
import XCTest
@testable import PekitCore

/// Issue 68: JSONPath's `match()` and `search()` run RFC 9485's I-Regexp in linear time (an
/// automaton, not backtracking), refuse what is not I-Regexp, and agree with a backtracking
/// engine (Swift's Regex, what pekit used before) wherever that one finishes.
final class IRegexpTests: XCTestCase {
    func matches(_ pattern: String, _ text: String, whole: Bool) throws -> Bool {
        let regex = try XCTUnwrap(IRegexp(pattern), pattern)
        var budget = WorkBudget.unlimited
        return try regex.matches(text, whole: whole, budget: &budget)
    }

    /// The classic exponential patterns on 100,000 characters: each step of the automaton is
    /// charged, and the steps stay within (length + 1) × (program size + 1), whatever the pattern.
    func testClassicReDoSPatternsRunInLinearSteps() throws {
        let n = 100_000
        let a = String(repeating: "a", count: n)
        let cases: [(pattern: String, text: String, match: Bool, search: Bool)] = [
            ("(a+)+b", a, false, false),
            ("(a|aa)*c", a, false, false),
            ("(a*)*b", a, false, false),
            ("(a|a)*b", a, false, false),
            ("(a*)*(a*)*(a*)*b", a, false, false),
            ("([a-z]+)*=", a, false, false),
            ("(.*a){3}x", a, false, false),
            ("(a|aa)*", a, true, true),
            ("(a+)+b", a + "b", true, true),
            ("(a|aa)*c", "x" + a + "c", false, true),
        ]
        for c in cases {
            let regex = try XCTUnwrap(IRegexp(c.pattern), c.pattern)
            for whole in [true, false] {
                var budget = WorkBudget(steps: .max)
                let found = try regex.matches(c.text, whole: whole, budget: &budget)
                XCTAssertEqual(found, whole ? c.match : c.search, "\(c.pattern) whole: \(whole)")
                let bound = (c.text.unicodeScalars.count + 1) * (regex.program.count + 1)
                XCTAssertLessThanOrEqual(budget.spent, bound, "\(c.pattern): \(budget.spent) steps")
            }
        }
    }

    func testABudgetStopsAMatch() throws {
        let regex = try XCTUnwrap(IRegexp("(a|aa)*c"))
        var budget = WorkBudget(steps: 1000)
        XCTAssertThrowsError(try regex.matches(String(repeating: "a", count: 10_000), whole: false, budget: &budget)) {
            XCTAssertEqual($0 as? WorkBudget.Exceeded, WorkBudget.Exceeded(limit: 1000, stopped: false))
        }
    }

    /// RFC 9485 §5 has no `\d`, `\w`, non-capturing or lazy groups, lookarounds or backreferences;
    /// RFC 9535 §2.4.6: a pattern that is not a valid I-Regexp matches nothing.
    func testWhatIsNotIRegexpIsRefused() throws {
        for pattern in [#"\d"#, #"\w"#, #"\s"#, "(?:a)", "a*?", "a+?", "a??", "(?=a)", #"\b"#, #"(a)\1"#, "a{2,1}", "a**",
                        "[]", "[^]", "[a-]b-]", #"\p{IsBasicLatin}"#, #"\p{Lx}"#, #"\u0041"#, "(a", "a)", "{", "a{", "a{1", "[--a]"] {
            XCTAssertNil(IRegexp(pattern), pattern)
            let path = try JSONPath("$[?match(@, '\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))')]")
            XCTAssertEqual(path.select(.array(["a", "1", "aa", ""])), [], pattern)
        }
        // …and what is I-Regexp is taken.
        for pattern in ["a", "", "a|", "(a|b)*c", "[a-z0-9_]+", "[^a]", "[-a]", "[a-]", #"\p{L}+"#, #"\P{Nd}"#, #"[\p{Lu}\d-]"#.replacingOccurrences(of: #"\d"#, with: "0-9"),
                        #"\.\*\+\?\(\)\[\]\{\}\|\\\^\-"#, "a{2}", "a{2,}", "a{2,5}", ".", #"\n\r\t"#, "^ab$"] {
            XCTAssertNotNil(IRegexp(pattern), pattern)
        }
    }

    /// Random patterns from I-Regexp's grammar against random subjects, held to Swift's
    /// backtracking Regex (patterns and subjects small enough for it to finish).
    func testAgreesWithABacktrackingEngine() throws {
        var random = SplitMix(seed: 68)
        let alphabet = ["a", "b", "c", "\n", "é", "Z", "3"]
        func atom(_ depth: Int) -> String {
            switch random.next(depth > 2 ? 5 : 7) {
            case 0, 1: return alphabet[random.next(3)]
            case 2: return "."
            case 3: return ["[ab]", "[^a]", "[a-c]", #"\p{L}"#, #"\P{Ll}"#, "[-a]"][random.next(6)]
            case 4: return alphabet[random.next(alphabet.count)] == "\n" ? #"\n"# : "é"
            default: return "(" + alternation(depth + 1) + ")"
            }
        }
        // A group under * or + sends the backtracking peer into exponential time on some
        // subjects (the very thing this engine avoids): groups take only bounded quantifiers.
        func piece(_ depth: Int) -> String {
            let a = atom(depth)
            let quantifiers = a.hasPrefix("(") ? ["", "", "?", "{2}", "{1,2}"] : ["", "", "*", "+", "?", "{2}", "{1,2}", "{0,}"]
            return a + quantifiers[random.next(quantifiers.count)]
        }
        func alternation(_ depth: Int) -> String {
            (0...random.next(2)).map { _ in (0...random.next(3)).map { _ in piece(depth) }.joined() }.joined(separator: "|")
        }
        var compared = 0
        for _ in 0..<1500 {
            let pattern = alternation(0)
            let regex = try XCTUnwrap(IRegexp(pattern), pattern)
            // The old translation: `.` as [^\n\r], matched by Unicode scalars.
            let translated = pattern.replacingOccurrences(of: ".", with: #"[^\n\r]"#)
            guard let peer = (try? Regex(translated))?.matchingSemantics(.unicodeScalar) else { continue }
            for _ in 0..<6 {
                let subject = (0..<random.next(7)).map { _ in alphabet[random.next(alphabet.count)] }.joined()
                var budget = WorkBudget.unlimited
                XCTAssertEqual(try regex.matches(subject, whole: true, budget: &budget), (try? peer.wholeMatch(in: subject)) != nil,
                               "match(\(subject.debugDescription), \(pattern.debugDescription))")
                XCTAssertEqual(try regex.matches(subject, whole: false, budget: &budget), (try? peer.firstMatch(in: subject)) != nil,
                               "search(\(subject.debugDescription), \(pattern.debugDescription))")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 8000)
    }
}
