import Foundation
import XCTest
@testable import PekitCore

/// Issue 44: JSONPath as RFC 9535 defines it, held to the JSONPath Compliance Test Suite
/// (Fixtures/jsonpath/jsonpath-cts.json, made by make_cts_vectors.py from the suite's cts.json).
final class JSONPathTests: XCTestCase {
    func field(_ map: PekitMap, _ key: String) -> PekitValue? { map[ByteString(key)] }

    func testComplianceTestSuite() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "jsonpath-cts", withExtension: "json", subdirectory: "Fixtures/jsonpath"))
        guard case .map(let file) = try JSONText.parse(Array(try Data(contentsOf: url))), case .array(let tests)? = field(file, "tests") else {
            return XCTFail("not the suite")
        }
        var failures: [String] = [], count = 0, refused = 0, selected = 0
        for case .map(let test) in tests {
            count += 1
            guard case .string(let name)? = field(test, "name"), case .string(let selector)? = field(test, "selector") else { continue }
            let parsed = Result { try JSONPath(selector.description) }
            if field(test, "invalid") == .boolean(true) {
                if case .success = parsed { failures.append("\(name): \(selector) is invalid, but it parsed") } else { refused += 1 }
                continue
            }
            guard case .success(let path) = parsed else {
                if case .failure(let error) = parsed { failures.append("\(name): \(selector): \(error)") }
                continue
            }
            guard let document = field(test, "document"), case .array(let results)? = field(test, "results") else { continue }
            let got = path.select(document)
            selected += 1
            let matches = results.contains { expected in
                guard case .array(let list) = expected else { return false }
                return list.count == got.count && zip(list, got).allSatisfy { JSONPath.equal($0, $1) }
            }
            if !matches { failures.append("\(name): \(selector): got \(String(decoding: JSONText.write(.array(got)), as: UTF8.self))") }
        }
        XCTAssertEqual(count, 703)
        XCTAssertEqual(refused + selected + failures.count, 703)
        XCTAssertEqual(failures, [], "\(failures.count) of \(count) CTS tests fail:\n" + failures.prefix(60).joined(separator: "\n"))
    }

    /// Issue 68: 20,000 nested parentheses, `!(`, filters or function calls crashed the process
    /// (the recursive descent ran off the stack); past 64 levels the parse fails, naming the depth.
    func testDeepNestingIsAParseErrorNotACrash() throws {
        let n = 20_000
        let paths = [
            "$[?" + String(repeating: "(", count: n) + "@" + String(repeating: ")", count: n) + "]",
            "$[?" + String(repeating: "!(", count: n) + "@" + String(repeating: ")", count: n) + "]",
            "$" + String(repeating: "[?@", count: n) + String(repeating: "]", count: n),
            "$[?" + String(repeating: "length(", count: n) + "@" + String(repeating: ")", count: n) + " == 1]",
        ]
        let offsets = [67, 131, 195, 451]
        for (path, offset) in zip(paths, offsets) {
            XCTAssertThrowsError(try JSONPath(path)) {
                XCTAssertEqual("\($0)", "JSONPath: at offset \(offset): filter expressions nest more than 64 levels deep")
            }
        }
        // 64 levels are read.
        let deepest = try JSONPath("$[?" + String(repeating: "(", count: 63) + "@" + String(repeating: ")", count: 63) + "]")
        XCTAssertEqual(deepest.select([1, 2]), [1, 2])
    }

    /// Issue 68: a query's work is charged node by node, so a caller can bound it.
    func testABudgetBoundsTheNodesAQueryVisits() throws {
        let list = PekitValue.array((1...300).map { .integer(Int64($0)) })
        let path = try JSONPath("$[?count($[?count($[?@ > 0]) > 0]) > 0]")
        var budget = WorkBudget(steps: 100_000)
        XCTAssertThrowsError(try path.select(list, budget: &budget)) {
            XCTAssertEqual($0 as? WorkBudget.Exceeded, WorkBudget.Exceeded(limit: 100_000, stopped: false))
        }
        var stopped = WorkBudget(steps: .max) { true }
        XCTAssertThrowsError(try path.select(list, budget: &stopped)) { XCTAssertEqual(($0 as? WorkBudget.Exceeded)?.stopped, true) }
        // Within the budget the answer is the unbounded one.
        var enough = WorkBudget(steps: 1_000)
        XCTAssertEqual(try JSONPath("$[?@ > 298]").select(list, budget: &enough), [299, 300])
        XCTAssertLessThan(enough.spent, 1_000)
    }

    /// A query that does not parse says where and why.
    func testParseErrorsNameTheOffset() {
        XCTAssertThrowsError(try JSONPath("$.a[?@.b == 1")) { XCTAssertEqual("\($0)", "JSONPath: at offset 13: unclosed [") }
    }
}
