import Foundation
import PekitCore
import PekitLua
import PekitTools

/// The reports `pekit test --report` writes: TAP 13, JUnit XML, JSON, GitHub annotations.
enum TestReport {
    enum Kind {
        case tap, github, junit(String), json(String), html(String)

        /// `tap`, `github`, `junit:FILE`, `json:FILE`, `html:DIR`.
        init(parsing text: String) throws {
            let (name, file) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, "")
            switch (name, file.isEmpty) {
            case ("tap", true): self = .tap
            case ("github", true): self = .github
            case ("junit", false): self = .junit(file)
            case ("json", false): self = .json(file)
            case ("html", false): self = .html(file)
            case ("junit", true), ("json", true): throw UsageError(command: "test", message: "--report \(name) needs a file: --report \(name):FILE")
            case ("html", true): throw UsageError(command: "test", message: "--report html needs a directory: --report html:DIR (its page is DIR/index.html)")
            default: throw UsageError(command: "test", message: "--report takes tap, github, junit:FILE, json:FILE or html:DIR, not '\(text)'")
            }
        }

        /// The file the report is written to, if any.
        var path: String? {
            switch self {
            case .tap, .github: return nil
            case .junit(let path), .json(let path): return path
            case .html(let directory): return Self.htmlPage(in: directory)
            }
        }

        /// The HTML report's one page in its directory.
        static func htmlPage(in directory: String) -> String { (directory as NSString).appendingPathComponent("index.html") }

        var isOnStandardOutput: Bool {
            switch self {
            case .tap, .github: return true
            case .junit, .json, .html: return false
            }
        }

        /// Written with every secret redacted (standard output is redacted as it goes).
        func write(_ results: [TestFileResult], _ summary: TestSummary, _ redactor: Redactor) throws {
            switch self {
            case .tap: Output.stdout.write(TestReport.tap(results))
            case .github: Output.stdout.write(TestReport.github(results))
            // Written as XML text, so that the report stays well-formed.
            case .junit(let path): try Files.writeAtomically(redactor.redact(Array(TestReport.junit(results, summary).utf8), placeholder: .xml), to: path)
            case .json(let path): try Files.writeAtomically(redactor.redact(TestReport.json(results, summary) + [0x0A]), to: path)
            // HTML escapes as XML does: the placeholder is written &lt;secret NAME&gt;.
            case .html(let directory):
                try Files.writeAtomically(redactor.redact(Array(TestHTMLReport.page(results, summary).utf8), placeholder: .xml),
                                          to: Self.htmlPage(in: directory), mode: 0o644)
            }
        }
    }

    /// Makes the directories of the files reports will be written to (`--report junit:reports/sub/junit.xml`)
    /// before a run, so that a run is never lost at its end for want of them, and a directory that
    /// cannot be made is said before anything runs.
    static func makeDirectories(for paths: [String], command: String) throws {
        for path in paths {
            let directory = (path as NSString).deletingLastPathComponent
            guard !directory.isEmpty else { continue }
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw CommandFailure(message: "pekit \(command): cannot make the directory \(directory) for \(path): \((error as NSError).localizedDescription)")
            }
        }
    }

    /// TAP 13: a line a test, failures with a YAML block, skips as `# SKIP`, a file that did not
    /// load as one failed point.
    static func tap(_ results: [TestFileResult]) -> String {
        var lines: [String] = [], n = 0
        func yaml(_ message: String, _ extra: String?) -> [String] {
            var block = ["  ---", "  message: " + quoted(message), "  severity: fail"]
            if let extra { block += ["  data: |"] + extra.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 } }
            return block + ["  ..."]
        }
        for result in results {
            if let error = result.loadError {
                n += 1
                lines.append("not ok \(n) - \(escapedTAP(result.path)) # the file did not load")
                lines += yaml(error, result.traceback)
                continue
            }
            for o in result.outcomes {
                n += 1
                let title = escapedTAP("\(result.path): \(TestText.name(o))")
                switch o.status {
                case .passed: lines.append("ok \(n) - \(title)")
                case .skipped: lines.append("ok \(n) - \(title) # SKIP \(escapedTAP(o.message ?? ""))")
                case .failed:
                    lines.append("not ok \(n) - \(title)")
                    let rest = TestText.explanation(o).map { String($0.dropFirst((o.message ?? "failed").count).drop { $0 == "\n" }) }
                    lines += yaml(o.message ?? "failed", rest?.isEmpty == false ? rest : nil)
                }
            }
        }
        return (["TAP version 13", "1..\(n)"] + lines).joined(separator: "\n") + "\n"
    }

    /// `#` starts a directive and `\` escapes in a TAP description.
    static func escapedTAP(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#").replacingOccurrences(of: "\n", with: " ")
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ s: String) -> String { String(decoding: JSONText.write(.text(s)), as: UTF8.self) }

    /// GitHub Actions workflow commands: an `::error` a failed test or file, at its line.
    static func github(_ results: [TestFileResult]) -> String {
        func property(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
                .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        func data(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        }
        var out = ""
        for result in results {
            if let error = result.loadError {
                out += "::error file=\(property(result.path))" + (result.loadErrorLine.map { ",line=\($0)" } ?? "") + ",title=\(property("the file did not load"))::\(data(error))\n"
            }
            // The whole explanation (the diff, the exchange with the response's body), as the
            // other reports give it: an annotation shows its lines when opened.
            for o in result.outcomes where o.status == .failed {
                out += "::error file=\(property(result.path))" + (o.line.map { ",line=\($0)" } ?? "") + ",title=\(property(TestText.name(o)))::"
                    + data(TestText.explanation(o, withOutput: false) ?? o.message ?? "failed") + "\n"
            }
        }
        return out
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // XML 1.0 has no other control characters, escaped or not.
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// JUnit XML as Jenkins and GitLab read it: a testsuite a file, a testcase a test and
    /// iteration, a failure's whole explanation in `<failure>`, what it printed in `<system-out>`.
    static func junit(_ results: [TestFileResult], _ summary: TestSummary) -> String {
        let timestamp = UnixTime.format(Date().timeIntervalSince1970, .iso8601).map { String($0.prefix(19)) } ?? "1970-01-01T00:00:00"
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"pekit test\" tests=\"\(summary.passed + summary.failed + summary.skipped + summary.errored)\" failures=\"\(summary.failed)\" errors=\"\(summary.errored)\" time=\"\(seconds(summary.seconds))\">\n"
        for (id, result) in results.enumerated() {
            let failures = result.outcomes.filter { $0.status == .failed }.count
            let skipped = result.outcomes.filter { $0.status == .skipped }.count
            let tests = result.loadError == nil ? result.outcomes.count : 1
            out += "  <testsuite name=\"\(xml(result.path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(result.loadError == nil ? 0 : 1)\" skipped=\"\(skipped)\" time=\"\(seconds(result.seconds))\" timestamp=\"\(timestamp)\" id=\"\(id)\">\n"
            if let error = result.loadError {
                out += "    <testcase name=\"(the file)\" classname=\"\(xml(result.path))\" time=\"0.000\">\n"
                out += "      <error message=\"\(xml(error))\" type=\"load\">\(xml(([error] + (result.traceback.map { [$0] } ?? [])).joined(separator: "\n")))</error>\n"
                out += "    </testcase>\n"
            }
            for o in result.outcomes {
                var inner = ""
                switch o.status {
                case .passed: break
                case .skipped: inner += "      <skipped message=\"\(xml(o.message ?? ""))\"/>\n"
                case .failed: inner += "      <failure message=\"\(xml(o.message ?? "failed"))\" type=\"failure\">\(xml(TestText.explanation(o, withOutput: false) ?? ""))</failure>\n"
                }
                // What it printed, once: the explanation above leaves it to this element.
                if !o.output.isEmpty {
                    let cut = o.outputCut > 0 ? "(\(o.outputCut) bytes cut before this: the last \(o.output.utf8.count) are kept)\n" : ""
                    inner += "      <system-out>\(xml(cut + o.output))</system-out>\n"
                }
                let open = "    <testcase name=\"\(xml(TestText.name(o)))\" classname=\"\(xml(result.path))\" time=\"\(seconds(o.seconds))\""
                out += inner.isEmpty ? open + "/>\n" : open + ">\n" + inner + "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// Every file and test with every field, and the summary.
    static func json(_ results: [TestFileResult], _ summary: TestSummary) -> [UInt8] {
        func entry(_ key: String, _ value: PekitValue) -> PekitMap.Entry { .init(key: ByteString(key), value: value) }
        func optional(_ key: String, _ value: String?) -> [PekitMap.Entry] { value.map { [entry(key, .text($0))] } ?? [] }
        let files: [PekitValue] = results.map { result in
            var fields = [entry("path", .text(result.path)), entry("seconds", .number(result.seconds))]
            fields += optional("error", result.loadError) + (result.loadErrorLine.map { [entry("line", .integer(Int64($0)))] } ?? []) + optional("traceback", result.traceback)
            fields.append(entry("tests", .array(result.outcomes.map { o in
                var t = [entry("name", .text(o.name)), entry("iteration", .integer(Int64(o.iteration))), entry("iterations", .integer(Int64(o.iterations))),
                         entry("status", .text(o.status.rawValue)), entry("seconds", .number(o.seconds))]
                t += optional("message", o.message) + (o.line.map { [entry("line", .integer(Int64($0)))] } ?? [])
                t += optional("detail", o.detail) + optional("traceback", o.traceback) + optional("exchange", o.exchange)
                t.append(entry("output", .text(o.output)))
                if o.outputCut > 0 { t.append(entry("output_cut", .integer(Int64(o.outputCut)))) }
                return .map(PekitMap(ordered: t))
            })))
            if result.stopped { fields.append(entry("stopped", .boolean(true))) }
            return .map(PekitMap(ordered: fields))
        }
        let counts = PekitMap(ordered: [entry("passed", .integer(Int64(summary.passed))), entry("failed", .integer(Int64(summary.failed))),
                                        entry("skipped", .integer(Int64(summary.skipped))), entry("errored", .integer(Int64(summary.errored))),
                                        entry("seconds", .number(summary.seconds))])
        let document = PekitValue.map(PekitMap(ordered: [entry("pekit_test", .integer(1)), entry("files", .array(files)), entry("summary", .map(counts))]))
        return (try? JSONText.encodePretty(document)) ?? JSONText.write(document)
    }
}
