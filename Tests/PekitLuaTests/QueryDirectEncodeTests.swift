import XCTest
import PekitCore
@testable import PekitLua

/// `pekit.query.encode` walks Lua tables in place; what it writes must be exactly what converting
/// the value and flattening it writes, under every shipped policy, and where it gives up (sets,
/// lists of pairs, comma arrays, odd keys) the conversion's answer is the one given.
final class QueryDirectEncodeTests: XCTestCase {
    func testTheWalkWritesWhatTheConversionWrites() throws {
        let runtime = try makeRuntime()
        var rng = SplitMixRandom(seed: 1234)
        let texts: [ByteString] = ["a", "b c", "x&y=z", "100%", "é", "漢字", "[]", "a.b", "", "+", "k[0]", ByteString([0xFF, 0x00])]
        func scalar() -> PekitValue {
            switch rng.next(6) {
            case 0: return .integer(Int64(rng.next(2000)) - 1000)
            case 1: return .number([1.5, -0.0, 1e300, 3.0, 0.1][rng.next(5)])
            case 2: return .boolean(rng.next(2) == 0)
            case 3: return .null
            default: return .string(texts[rng.next(texts.count)])
            }
        }
        func value(_ depth: Int) -> PekitValue {
            guard depth < 4, rng.next(3) > 0 else { return scalar() }
            switch rng.next(5) {
            case 0: return .array((0..<rng.next(4)).map { _ in value(depth + 1) })
            case 1: return .set((0..<rng.next(3)).map { _ in scalar() })
            default:
                let entries = (0..<rng.next(4)).map { _ in PekitMap.Entry(key: texts[rng.next(texts.count)], value: value(depth + 1)) }
                // Keys once each, as a Lua table holds them.
                var seen = Set<ByteString>()
                let unique = entries.filter { seen.insert($0.key).inserted }
                return .map(rng.next(2) == 0 ? PekitMap(ordered: unique) : PekitMap(unordered: unique))
            }
        }
        let policies = try runtime.policies.list().map { try runtime.policy(named: $0.name) }
        XCTAssertGreaterThan(policies.count, 15)
        var walked = 0
        for _ in 0..<400 {
            var top = value(0)
            if case .map = top {} else { top = .map(PekitMap(ordered: [.init(key: "p", value: top)])) }
            for keepOrder in [true, false] {
                runtime.push(top, keepOrder: keepOrder)
                defer { runtime.stack.pop() }
                for policy in policies {
                    let general = Result { try policy.queryString(try runtime.value(at: -1, path: "params")) }
                    guard let direct = try QueryModule.directQueryString(runtime, at: -1, policy: policy) else { continue }
                    walked += 1
                    XCTAssertEqual(direct, try general.get(), "\(policy.name): \(top)")
                }
            }
        }
        XCTAssertGreaterThan(walked, 4000, "the walk should take most of these")
        XCTAssertEqual(runtime.stack.top, 0)
    }
}

/// A small deterministic generator (the tests' values are the same on every run).
struct SplitMixRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
