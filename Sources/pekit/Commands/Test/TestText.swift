import Foundation
import PekitLua
import PekitTools

/// What `pekit test` prints of one file: a line a test, and under a failure what explains it.
enum TestText {
    static func name(_ o: TestOutcome) -> String { o.iterations > 1 ? "\(o.name) [\(o.iteration)/\(o.iterations)]" : o.name }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }

    static func indented(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }

    static func render(_ result: TestFileResult) -> String {
        var out = result.path + "\n"
        for note in result.notes { out += "  note  " + note + "\n" }
        if let error = result.loadError {
            out += "  ERROR " + error + "\n"
            if let traceback = result.traceback { out += indented(traceback, by: "        ") + "\n" }
            return out
        }
        for o in result.outcomes {
            switch o.status {
            case .passed: out += "  ok    \(name(o)) (\(milliseconds(o.seconds)))\n"
            case .skipped: out += "  skip  \(name(o))" + ((o.message ?? "").isEmpty ? "" : ": \(o.message ?? "")") + "\n"
            case .failed:
                out += "  FAIL  \(name(o)) (\(milliseconds(o.seconds)))\n"
                out += explanation(o).map { indented($0, by: "        ") + "\n" } ?? ""
            }
        }
        if result.stopped { out += "  (stopped: --fail-fast)\n" }
        return out
    }

    /// A failure's whole explanation: message, detail, traceback, exchange, and (unless a report
    /// writes it elsewhere, as JUnit's `<system-out>`) what the test printed.
    static func explanation(_ o: TestOutcome, withOutput: Bool = true) -> String? {
        guard o.status == .failed else { return nil }
        var parts = [o.message ?? "failed"]
        if let detail = o.detail { parts.append(detail) }
        if let traceback = o.traceback { parts.append(traceback) }
        if let exchange = o.exchange { parts.append(exchange) }
        if withOutput && !o.output.isEmpty {
            parts.append(printedHeading(o) + "\n" + indented(String(o.output.dropLast(o.output.hasSuffix("\n") ? 1 : 0)), by: "  "))
        }
        return parts.joined(separator: "\n")
    }

    /// "printed:", or, when only the end of a long output was kept, how much of it.
    static func printedHeading(_ o: TestOutcome) -> String {
        guard o.outputCut > 0 else { return "printed:" }
        return "printed (the last \(o.output.utf8.count) bytes of \(o.output.utf8.count + o.outputCut); \(o.outputCut) cut):"
    }
}

/// The counts of a run, its summary line and its exit status.
struct TestSummary {
    var passed = 0, failed = 0, skipped = 0, errored = 0
    let seconds: Double

    init(_ results: [TestFileResult], seconds: Double) {
        self.seconds = seconds
        for result in results {
            if result.loadError != nil { errored += 1 }
            for o in result.outcomes {
                switch o.status {
                case .passed: passed += 1
                case .failed: failed += 1
                case .skipped: skipped += 1
                }
            }
        }
    }

    var line: String {
        "\(passed) passed, \(failed) failed, \(skipped) skipped, \(errored) errored in " + String(format: "%.2f s", seconds)
    }

    var exitStatus: Int32 { errored > 0 ? 2 : failed > 0 ? 1 : 0 }
}
