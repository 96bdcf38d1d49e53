import Foundation
import PekitTools

/// `pekit test --report html:DIR`: one page a run, `DIR/index.html`, that needs nothing but a
/// browser: no script, no network, no file beside it (styles inline, `<details>` to open a test).
/// A bar shows the run's passed, failed and skipped tests at a glance; each file lists its tests
/// with status and time, and each test opens on the request as sent and as curl, the response's
/// fields and body, the jar's verdicts, the assertion that failed, its diff and traceback, and
/// what it printed. Failures come open. Secrets are redacted by the writer, as in every report.
enum TestHTMLReport {
    static func page(_ results: [TestFileResult], _ summary: TestSummary) -> String {
        let total = max(1, summary.passed + summary.failed + summary.skipped)
        func percent(_ n: Int) -> String { String(format: "%.3f%%", Double(n) * 100 / Double(total)) }
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>pekit test: \(escape(summary.line))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1>pekit test</h1>
            <p id="summary" class="\(summary.exitStatus == 0 ? "ok" : "bad")">\(escape(summary.line))</p>
            <div class="bar" role="img" aria-label="\(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped">\
            <span class="passed" style="width: \(percent(summary.passed))"></span>\
            <span class="failed" style="width: \(percent(summary.failed))"></span>\
            <span class="skipped" style="width: \(percent(summary.skipped))"></span></div>
            </header>
            <main>

            """
        var number = 0
        for result in results {
            html += "<section class=\"file\">\n<h2>\(escape(result.path))</h2>\n"
            if let error = result.loadError {
                html += "<div class=\"test errored\"><p class=\"message\">the file did not load: \(escape(error))</p>"
                html += result.traceback.map { "<pre class=\"traceback\">\(escape($0))</pre>" } ?? ""
                html += "</div>\n"
            }
            for o in result.outcomes {
                number += 1
                html += test(o, id: "t\(number)")
            }
            if result.stopped { html += "<p class=\"note\">stopped here: --fail-fast</p>\n" }
            html += "</section>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    /// One test: a line that opens on what explains it.
    static func test(_ o: TestOutcome, id: String) -> String {
        let status: String
        switch o.status {
        case .passed: status = "ok"
        case .failed: status = "FAIL"
        case .skipped: status = "skip"
        }
        var body = ""
        if o.status == .skipped, let why = o.message, !why.isEmpty { body += "<p class=\"message\">skipped: \(escape(why))</p>\n" }
        if o.status == .failed {
            body += "<p class=\"message\">\(escape(o.message ?? "failed"))</p>\n"
            if let detail = o.detail { body += "<pre class=\"detail\">\(diff(detail))</pre>\n" }
            if let traceback = o.traceback { body += "<pre class=\"traceback\">\(escape(traceback))</pre>\n" }
        }
        if let exchange = o.exchange { body += exchangeSections(exchange) }
        if !o.output.isEmpty {
            body += "<h3>\(escape(TestText.printedHeading(o).dropLast()))</h3>\n<pre class=\"output\">\(escape(o.output))</pre>\n"
        }
        let time = o.status == .skipped ? "" : "<span class=\"time\">\(TestText.milliseconds(o.seconds))</span>"
        let summaryLine = "<summary><span class=\"status\">\(status)</span> <span class=\"name\">\(escape(TestText.name(o)))</span> \(time)</summary>"
        if body.isEmpty { return "<div class=\"test \(o.status.rawValue)\" id=\"\(id)\"><p class=\"line\">\(summaryLine.replacingOccurrences(of: "summary>", with: "span>"))</p></div>\n" }
        return "<details class=\"test \(o.status.rawValue)\" id=\"\(id)\"\(o.status == .failed ? " open" : "")>\(summaryLine)\n\(body)</details>\n"
    }

    /// The exchange's parts under their own headings: "the request, as sent:", "as curl:", "the
    /// response:", "the jar:", each followed by its indented lines.
    static func exchangeSections(_ exchange: String) -> String {
        var out = "", lines: [Substring] = []
        func flush() {
            guard !lines.isEmpty else { return }
            out += "<pre class=\"exchange\">\(escape(lines.map { $0.hasPrefix("  ") ? $0.dropFirst(2) : $0 }.joined(separator: "\n")))</pre>\n"
            lines = []
        }
        for line in exchange.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                flush()
                out += "<h3>\(escape(line.hasSuffix(":") ? line.dropLast() : line))</h3>\n"
            } else {
                lines.append(line)
            }
        }
        flush()
        return out
    }

    /// A unified diff's lines marked for colour: `-` expected, `+` got.
    static func diff(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("- ") || trimmed == "-" { return "<del>\(escape(line))</del>" }
            if trimmed.hasPrefix("+ ") || trimmed == "+" { return "<ins>\(escape(line))</ins>" }
            return escape(line)
        }.joined(separator: "\n")
    }

    /// Text as HTML holds it: XML's escaping (`TestReport.xml`), which HTML reads the same, control
    /// characters aside included.
    static func escape<S: StringProtocol>(_ text: S) -> String { TestReport.xml(String(text)) }

    static let style = """
        :root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --skip: #9a6700; --line: #d0d7de; --code: #f6f8fa; }
        @media (prefers-color-scheme: dark) { :root { --line: #30363d; --code: #161b22; } }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem 3rem; }
        h1 { font-size: 1.4rem; margin: 0.5rem 0; }
        h2 { font-size: 1.05rem; font-family: ui-monospace, monospace; border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; margin-top: 2rem; }
        h3 { font-size: 0.85rem; margin: 0.8rem 0 0.2rem; text-transform: lowercase; opacity: 0.8; }
        #summary { font-weight: 600; margin: 0.3rem 0; }
        #summary.ok { color: var(--ok); } #summary.bad { color: var(--bad); }
        .bar { display: flex; height: 0.7rem; border-radius: 0.35rem; overflow: hidden; background: var(--line); }
        .bar .passed { background: var(--ok); } .bar .failed { background: var(--bad); } .bar .skipped { background: var(--skip); }
        .test { border: 1px solid var(--line); border-left-width: 4px; border-radius: 4px; margin: 0.4rem 0; padding: 0.3rem 0.7rem; }
        .test.passed { border-left-color: var(--ok); } .test.failed, .test.errored { border-left-color: var(--bad); } .test.skipped { border-left-color: var(--skip); }
        .test .line { margin: 0; }
        summary { cursor: pointer; }
        .status { display: inline-block; min-width: 2.6rem; font-weight: 700; font-family: ui-monospace, monospace; }
        .passed .status { color: var(--ok); } .failed .status { color: var(--bad); } .skipped .status { color: var(--skip); }
        .time { opacity: 0.6; font-size: 0.85rem; margin-left: 0.4rem; }
        .message { font-family: ui-monospace, monospace; color: var(--bad); white-space: pre-wrap; overflow-wrap: anywhere; }
        .skipped .message { color: inherit; }
        pre { background: var(--code); padding: 0.5rem 0.7rem; border-radius: 4px; overflow-x: auto; font-size: 0.82rem; margin: 0.2rem 0; }
        del { color: var(--bad); text-decoration: none; } ins { color: var(--ok); text-decoration: none; }
        .note { font-style: italic; }
        """
}
