import Foundation
import XCTest
@testable import PekitCore

/// The server models' registration rows: one source for `--set`, Lua's option tables, help,
/// completion and docs/servers.md.
final class QueryServerOptionRowsTests: XCTestCase {
    /// Each model's defaults find their own row again, and the names are the rows' names.
    func testEveryModelFindsItsRow() throws {
        XCTAssertEqual(QueryServer.names, ["qs", "php", "rack", "python", "go", "whatwg", "node-querystring"])
        for model in QueryServer.models {
            XCTAssertEqual(model.defaults.name, model.name)
            XCTAssertEqual(model.defaults.modelled, model.modelled)
            XCTAssertEqual(try QueryServer.named(model.name).model.optionNames, model.optionNames)
        }
    }

    /// A value of the wrong kind is refused in the words the row gives for what it takes.
    func testEveryRowSaysWhatItTakes() throws {
        for model in QueryServer.models {
            for option in model.options {
                XCTAssertThrowsError(try QueryServer.named(model.name, options: [(option.name, .array([]))]), "\(model.name) \(option.name)") { error in
                    guard let error = error as? QueryServer.OptionError else { return XCTFail("\(error)") }
                    XCTAssertEqual(error.option, option.name)
                    XCTAssertTrue(error.message.hasPrefix("expected \(option.takes)"), "\(model.name) \(option.name): \(error.message) / \(option.takes)")
                    XCTAssertTrue(error.message.hasSuffix(", got an array"), error.message)
                }
            }
        }
    }

    /// A value of the right kind reaches the parser the row names.
    func testRowsSetTheirParser() throws {
        guard case .qs(let qs) = try QueryServer.named("qs", options: [("allowDots", .boolean(true)), ("arrayLimit", .integer(3))]) else { return XCTFail() }
        XCTAssertTrue(qs.allowDots)
        XCTAssertEqual(qs.arrayLimit, 3)
        guard case .python(let python) = try QueryServer.named("python", options: [("max_num_fields", .number(4)), ("errors", .text("strict"))]) else { return XCTFail() }
        XCTAssertEqual(python.maxNumFields, 4)
        XCTAssertEqual(python.errors, .strict)
        guard case .rack(let rack) = try QueryServer.named("rack", options: [("separators", .text(";"))]) else { return XCTFail() }
        XCTAssertEqual(rack.separators, ";")
        XCTAssertThrowsError(try QueryServer.named("go", options: [("x", .boolean(true))])) { XCTAssertEqual("\($0)", "option \"x\": go has no such option (it has none)") }
    }

    /// docs/servers.md's table of server models lists every model and every option of its row, in order.
    func testTheGuideListsEveryRow() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/servers.md")
        let readmeText = try String(contentsOf: readme, encoding: .utf8)
        guard let table = readmeText.range(of: "| server | models | options (the server's own names) |") else { return XCTFail("docs/servers.md has no table of server models") }
        let text = readmeText[table.upperBound...]
        for model in QueryServer.models {
            guard let row = text.split(separator: "\n").first(where: { $0.hasPrefix("| `\(model.name)` |") }) else {
                XCTFail("docs/servers.md has no row for \(model.name)"); continue
            }
            let options = String(row)
            var at = options.startIndex
            for name in model.optionNames {
                guard let found = options.range(of: "`\(name)`", range: at..<options.endIndex) else {
                    XCTFail("docs/servers.md's \(model.name) row lacks `\(name)` (or lists it out of order)"); break
                }
                at = found.upperBound
            }
        }
    }
}
