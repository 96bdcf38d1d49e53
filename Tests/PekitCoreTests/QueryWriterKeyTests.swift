import XCTest
@testable import PekitCore

/// The query writer takes keys encoded a segment at a time as the flattener composes them
/// (when the key encoder is byte-local); the general path encodes each whole key after
/// flattening. Both must give the same bytes, for every preset and for the styles and allowed
/// sets that decide whether keys are composed encoded (brackets and dots escaped or kept, a
/// digit escaped, keys not encoded or encoded a segment at a time, a key function).
final class QueryWriterKeyTests: XCTestCase {
    func generalPath(_ policy: Policy, _ value: PekitValue) throws -> String {
        String(decoding: policy.join(try policy.encodedPairs(policy.pairs(value))), as: UTF8.self)
    }

    func randomValue(_ depth: Int, _ rng: inout SystemRandomNumberGenerator) -> PekitValue {
        let names: [ByteString] = ["a", "b c", "[x]", "d.e", "%41", "%zz", "0", "12", "漢字", "k&v", "a+b", ""]
        let leaves: [PekitValue] = [.text("v"), .text("x y"), .text("%20"), .text("漢"), .integer(7), .boolean(true), .null, .number(1.5)]
        if depth == 0 || Int.random(in: 0..<3, using: &rng) == 0 { return leaves.randomElement(using: &rng)! }
        if Bool.random(using: &rng) {
            return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in randomValue(depth - 1, &rng) })
        }
        let entries = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            PekitMap.Entry(key: names.randomElement(using: &rng)!, value: randomValue(depth - 1, &rng))
        }
        return .map(PekitMap(ordered: entries))
    }

    func testComposedEncodedKeysMatchWholeKeyEncoding() throws {
        var policies = Array(Policy.builtins.values)
        let digitsEscaped = AllowedSet(bytes: Array("abcdefghijklmnopqrstuvwxyz".utf8))
        for arrays in [Policy.ArrayEncoding.brackets, .indices, .repeat, .comma] {
            for objects in [Policy.ObjectEncoding.brackets, .dots] {
                policies.append(Policy(order: .given, arrays: arrays, objects: objects))
                policies.append(Policy(allowed: .unreserved + AllowedSet(bytes: Array("[].".utf8)), order: .given, arrays: arrays, objects: objects))
                policies.append(Policy(allowed: digitsEscaped, order: .given, arrays: arrays, objects: objects))
                policies.append(Policy(order: .given, arrays: arrays, objects: objects, encodeKeys: .none))
                policies.append(Policy(order: .given, arrays: arrays, objects: objects, encodeKeys: .segments))
                policies.append(Policy(order: .given, arrays: arrays, objects: objects, encodeKeys: .allowed(.afnetworking)))
            }
        }
        policies.append(Policy(order: .given, objects: .custom { parent, name in parent + "<" + name + ">" }))
        var rng = SystemRandomNumberGenerator()
        var failures: [String] = []
        for policy in policies {
            for _ in 0..<150 {
                let value = PekitValue.map(PekitMap(ordered: (0..<Int.random(in: 1...3, using: &rng)).map { n in
                    PekitMap.Entry(key: ByteString("p\(n)[q]"), value: randomValue(3, &rng))
                }))
                let written = try policy.queryString(value).description
                let general = try generalPath(policy, value)
                if written != general { failures.append("\(policy.name) \(value): writer \(written), general \(general)") }
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(10).joined(separator: "\n"))
    }
}
