import Foundation
import XCTest

/// One declaration per option (issue 70): a send option's flags (`--timeout`, `-k`…) are declared
/// once, on their row of `SendOptions.fields` with their help and value, and `pekit request`'s
/// rows are made from it; no `Option("…")` of the command line declares one of them again.
final class OptionDeclarationTests: XCTestCase {
    func testSendFlagsAreDeclaredOnce() throws {
        let root = PekitProcess.packageRoot
        let fields = try String(contentsOf: root.appendingPathComponent("Sources/PekitHTTP/SendOptions.swift"), encoding: .utf8)
        let flag = try NSRegularExpression(pattern: #"Field\.Flag\("([^"]+)""#)
        let names = flag.matches(in: fields, range: NSRange(fields.startIndex..., in: fields)).compactMap { Range($0.range(at: 1), in: fields).map { String(fields[$0]) } }
        XCTAssertGreaterThan(names.count, 15)
        let cli = root.appendingPathComponent("Sources/pekit")
        let files = FileManager.default.enumerator(atPath: cli.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOf: cli.appendingPathComponent(file), encoding: .utf8)
            for name in names {
                // pekit test's --max-time is a test's limit, not a send's (the issue that asked
                // for it names it so); its --timeout is the send option's row.
                if file == "Commands/Test/TestCommand.swift" && name == "max-time" { continue }
                XCTAssertFalse(text.contains("Option(\"\(name)\""), "\(file) declares --\(name) again: it is SendOptions.fields' (use its row)")
            }
        }
        // And every one is a row of pekit request, with its help: the help lists each flag.
        let help = try PekitProcess.run(["request", "--help"]).stdout
        for name in names { XCTAssertTrue(help.contains("--\(name)"), "pekit request --help does not list --\(name)") }
    }
}
