import PekitTestSupport
import XCTest
@testable import PekitCore

/// `pekit encode --explain`'s two halves, each held to the general path it explains: the
/// steps to the encoder's own output, and the reading of a value predicted rule by rule to each
/// server model's parse of the whole query (the models are held to the real servers by
/// server-vectors.json).
final class EncodingExplanationTests: XCTestCase {
    /// Joined, the steps' bytes are the input and their written bytes the encoder's output, for
    /// random inputs (tabs, escapes, bytes that are not UTF-8) under random sets and options.
    func testStepsJoinIntoTheEncodersOutput() {
        var rng = SplitMix(seed: 3986)
        let pool: [UInt8] = Array("aZ09-._~ +%2F%zz;&=?#/[]!*'()\t".utf8) + [0xC3, 0xA9, 0xE6, 0xB1, 0x89, 0xFF, 0x80, 0x00, 0x7F]
        let sets: [AllowedSet] = [.unreserved, .query, .path, .form, .afnetworking, .unreserved + AllowedSet(ascii: "%+;&")]
        for _ in 0..<5_000 {
            let input = (0..<rng.next(24)).map { _ in pool[rng.next(pool.count)] }
            let encoder = PercentEncoder(allowed: sets[rng.next(sets.count)], space: rng.next(2) == 0 ? .plus : .percent,
                                         hexCase: rng.next(2) == 0 ? .upper : .lower, keepsValidEscapes: rng.next(2) == 0)
            let steps = encoder.explain(input, origin: AllowedSetOrigin(base: .unreserved, name: "unreserved"))
            XCTAssertEqual(steps.flatMap(\.bytes), input)
            XCTAssertEqual(steps.flatMap(\.written), encoder.encode(bytes: input), "\(input)")
            // Each reason says what happened: kept, escaped, or a space written '+'.
            for step in steps where !step.reason.hasPrefix("written '+'") {
                XCTAssertEqual(step.reason.hasPrefix("kept"), step.kept, "\(step)")
                XCTAssertEqual(step.reason.hasPrefix("escaped"), !step.kept, "\(step)")
            }
        }
    }

    /// The rule-by-rule reading of one value is each model's reading of `explain=VALUE`, on
    /// random values as an encoder writes them (ASCII: escapes for the rest) made of the pieces
    /// where servers differ: '+', '%' with and without digits, ';', '&', '=', escapes of bytes
    /// that are not UTF-8, NUL (as a set that allows it leaves it) and escaped.
    func testEachServersReadingOfAValueIsItsModels() throws {
        var rng = SplitMix(seed: 74)
        let pieces = ["a", "b", "+", "%", ";", "&", "=", " ", "%2B", "%20", "%C3", "%A9", "%c3%a9", "%FF", "%80", "%zz", "%4", "2F", "%25",
                      "]", "\u{0}", "%00", "\t", "#", "\u{7F}"]
        var rules = Set<String>()
        for _ in 0..<4_000 {
            let value = (0..<rng.next(8)).flatMap { _ in Array(pieces[rng.next(pieces.count)].utf8) }
            for model in QueryServer.models {
                XCTAssertNil(model.disagreement(value), "\(value)")
                rules.formUnion(model.readValue(value).notes)
            }
        }
        // Every rule came up (the values are not all plain ones).
        XCTAssertEqual(rules.count, 14, "\(rules.sorted())")
    }

    /// What the explain fuzz target found in CI (Tests/Fuzz/corpus/explain keeps the input):
    /// the input made ASCII, `atb%c;z]=%FFF`, and the same input escaped.
    func testTheFuzzersFindingsAgree() {
        for value in ["atb%c;z]=%FFF", "a%F4b%25c%3Bz%5D%3D%25FFF", "&[[[explain]hn", ";b]=ca;b]OptiF", "%3Bb%5D%3Dca%3Bb%5DOptiF", ";;b]=ca;b]O;\u{14}t"] {
            for model in QueryServer.models {
                XCTAssertNil(model.disagreement(Array(value.utf8)), value)
            }
        }
    }
}

/// `pekit query --explain`'s pairs, held to the query they explain: for every built-in policy
/// and random nested values (strings with separators, spaces, escapes, text past ASCII; nulls,
/// booleans, numbers, empty arrays), the written pairs joined are the query, each pair's
/// escaped characters re-encode to what was written, and nothing is left out.
final class QueryExplanationTests: XCTestCase {
    func testThePairsJoinIntoTheQuery() throws {
        var rng = SplitMix(seed: 1738)
        let strings = ["a", "a b", "x&y=z", "100%", "é", "[]", "a.b", "+", ""]
        func value(_ depth: Int) -> PekitValue {
            switch rng.next(depth > 2 ? 5 : 7) {
            case 0: return .string(ByteString(strings[rng.next(strings.count)]))
            case 1: return .null
            case 2: return .boolean(rng.next(2) == 0)
            case 3: return .integer(Int64(rng.next(2000)) - 1000)
            case 4: return .number(Double(rng.next(1000)) / 8)
            case 5: return .array((0..<rng.next(3)).map { _ in value(depth + 1) })
            default: return .map(PekitMap(ordered: (0..<rng.next(3)).map { i in .init(key: ByteString(strings[rng.next(strings.count)] + "\(i)"), value: value(depth + 1)) }))
            }
        }
        var explained = 0
        for (name, policy) in Policy.builtins.sorted(by: { $0.key < $1.key }) {
            for _ in 0..<150 {
                let top = PekitValue.map(PekitMap(ordered: (0..<1 + rng.next(3)).map { i in .init(key: ByteString("k\(i)"), value: value(0)) }))
                guard let explanation = try? policy.explain(top) else { continue }
                XCTAssertEqual(explanation.query, try policy.queryString(top).bytes, name)
                guard !explanation.query.isEmpty else { continue }
                // A policy that leaves keys as they are (qs's encodeValuesOnly) writes a key's '&'
                // as it is: its pairs cannot be told apart, and none are given.
                if explanation.pairs.isEmpty {
                    XCTAssert(try policy.pairs(top).contains { $0.key.bytes.contains(policy.separator.bytes[0]) }, "\(name): \(top)")
                    continue
                }
                let joined = policy.prefix.bytes + Array(explanation.pairs.map { $0.key + ($0.value.map { policy.assign.bytes + $0 } ?? []) }.joined(separator: policy.separator.bytes))
                XCTAssertEqual(joined, explanation.query, name)
                for pair in explanation.pairs {
                    for step in pair.keyChanges + pair.valueChanges { XCTAssertNotEqual(step.written, step.bytes, name) }
                }
                explained += 1
            }
        }
        XCTAssertGreaterThan(explained, 2_000)
    }
}
