import Foundation
import PekitHTTP

/// `pekit load --report html:FILE`: one self-contained page (inline SVG, no script, nothing
/// fetched) with the percentile distribution as HdrHistogram's plotter draws it (latency against
/// 1/(1-p) on a log scale, so p90, p99, p99.9 … are evenly spaced), requests and errors per
/// second, and the summary.
enum LoadHTMLReport {
    static let width = 860.0, height = 320.0
    static let left = 70.0, right = 45.0, top = 20.0, bottom = 40.0

    static func page(_ report: LoadReport) -> String {
        let r = report.result
        let title = "pekit load " + TestReport.xml(report.target)
        var rows = ""
        for line in report.text.split(separator: "\n", omittingEmptySubsequences: false) { rows += TestReport.xml(String(line)) + "\n" }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
            h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
            pre { background: #f6f6f6; padding: 12px; overflow-x: auto; }
            svg text { font: 11px system-ui, sans-serif; fill: #444; }
            .grid { stroke: #ddd; } .axis { stroke: #888; }
            .corrected { stroke: #c0392b; fill: none; stroke-width: 2; } .recorded { stroke: #2471a3; fill: none; stroke-width: 2; }
            .requests { fill: #5d9cec; } .errors { fill: #c0392b; }
            .legend rect { stroke: none; }
            table { border-collapse: collapse; } td, th { padding: 3px 10px; text-align: right; border-bottom: 1px solid #eee; }
            td:first-child, th:first-child { text-align: left; }
            </style></head><body>
            <h1>\(title)</h1>
            <p id="summary">\(r.requests) requests in \(LoadQuantity.fixed(r.seconds, 2)) s, \(LoadQuantity.fixed(r.requestsPerSecond, 1)) a second, \(r.errorCount) errors</p>
            <h2>Latency by percentile</h2>
            \(distributionPlot(r))
            <h2>Requests and errors each second</h2>
            \(timelinePlot(r))
            <h2>Phases</h2>
            \(phasesTable(r))
            <h2>Summary</h2>
            <pre id="text">\(rows)</pre>
            </body></html>

            """
    }

    /// x for a percentile: log10(1/(1-p)), 0 at p = 0, 5 at p99.999 (the last tick).
    static func x(_ percentile: Double, _ span: Double) -> Double {
        let p = min(percentile, 99.9999) / 100
        let decades = log10(1 / (1 - p))
        return left + decades / span * (width - left - right)
    }

    static func distributionPlot(_ r: LoadResult) -> String {
        var lines: [(String, LatencyHistogram)] = []
        if let corrected = r.corrected { lines.append(("corrected", corrected)) }
        lines.append(("recorded", r.latency))
        guard r.latency.count > 0 else { return "<p>No answers to measure.</p>" }
        let span = 5.0  // decades of 1/(1-p): up to p99.999
        let top = Double(lines.map { $0.1.max }.max() ?? 1) / 1000 * 1.05
        let ceiling = niceCeiling(top)
        func y(_ ms: Double) -> Double { Self.top + (height - Self.top - bottom) * (1 - ms / ceiling) }
        var svg = "<svg id=\"percentiles\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for (label, p) in [("0%", 0.0), ("90%", 90), ("99%", 99), ("99.9%", 99.9), ("99.99%", 99.99), ("99.999%", 99.999)] {
            let gx = x(p, span)
            svg += "<line class=\"grid\" x1=\"\(f(gx))\" y1=\"\(f(Self.top))\" x2=\"\(f(gx))\" y2=\"\(f(height - bottom))\"/>"
            svg += "<text x=\"\(f(gx))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">\(label)</text>"
        }
        for i in 0...4 {
            let ms = ceiling * Double(i) / 4
            svg += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y(ms)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(ms)))\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(ms) + 4))\" text-anchor=\"end\">\(LoadQuantity.fixed(ms, ms < 10 ? 2 : 0)) ms</text>"
        }
        svg += "<text x=\"\(f((left + width - right) / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">percentile (1/(1−p), log scale)</text>"
        for (name, histogram) in lines {
            var points: [String] = []
            for step in histogram.percentileDistribution(ticksPerHalfDistance: 5) where step.percentile <= 99.999 {
                points.append("\(f(x(step.percentile, span))),\(f(y(Double(step.value) / 1000)))")
            }
            svg += "<polyline class=\"\(name)\" points=\"\(points.joined(separator: " "))\"/>"
        }
        svg += "<g class=\"legend\">"
        for (i, (name, _)) in lines.enumerated() {
            let lx = left + 12 + Double(i) * 110
            svg += "<rect x=\"\(f(lx))\" y=\"\(f(Self.top + 4))\" width=\"14\" height=\"4\" style=\"fill: \(name == "corrected" ? "#c0392b" : "#2471a3")\"/>"
            svg += "<text x=\"\(f(lx + 20))\" y=\"\(f(Self.top + 10))\">\(name)</text>"
        }
        return svg + "</g></svg>"
    }

    static func timelinePlot(_ r: LoadResult) -> String {
        guard !r.timeline.isEmpty else { return "<p>Nothing measured.</p>" }
        let peak = Double(r.timeline.map(\.requests).max() ?? 1)
        let ceiling = niceCeiling(max(peak, 1))
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let slot = plotWidth / Double(r.timeline.count)
        func y(_ n: Double) -> Double { top + plotHeight * (1 - n / ceiling) }
        var svg = "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for i in 0...4 {
            let n = ceiling * Double(i) / 4
            svg += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y(n)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(n)))\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(n) + 4))\" text-anchor=\"end\">\(Int(n))</text>"
        }
        let labelEvery = max(1, r.timeline.count / 10)
        for (i, second) in r.timeline.enumerated() {
            let bx = left + Double(i) * slot
            let ok = Double(second.requests - second.errors), bad = Double(second.errors)
            svg += "<rect class=\"requests\" x=\"\(f(bx + 1))\" y=\"\(f(y(ok)))\" width=\"\(f(max(slot - 2, 1)))\" height=\"\(f(top + plotHeight - y(ok)))\"><title>second \(i): \(second.requests) requests, \(second.errors) errors</title></rect>"
            if bad > 0 {
                svg += "<rect class=\"errors\" x=\"\(f(bx + 1))\" y=\"\(f(y(ok + bad)))\" width=\"\(f(max(slot - 2, 1)))\" height=\"\(f(y(ok) - y(ok + bad)))\"/>"
            }
            if i % labelEvery == 0 {
                svg += "<text x=\"\(f(bx + slot / 2))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">\(i)s</text>"
            }
        }
        return svg + "</svg>"
    }

    /// Each phase's percentiles, from the request's start as curl's `time_*` measure them (a
    /// phase that never took time, TLS on http://, left out).
    static func phasesTable(_ r: LoadResult) -> String {
        let shown = r.phases.filter { $0.histogram.max > 0 }
        guard !shown.isEmpty else { return "<p>No answers to measure.</p>" }
        var html = "<table id=\"phases\"><tr><th>phase</th>"
        for p in LoadReport.percentiles { html += "<th>\(LoadReport.label(p))</th>" }
        html += "<th>max</th></tr>"
        for phase in shown {
            html += "<tr><td>\(TestReport.xml(phase.name))</td>"
            for p in LoadReport.percentiles { html += "<td>\(LoadQuantity.micros(phase.histogram.value(atPercentile: p)))</td>" }
            html += "<td>\(LoadQuantity.micros(phase.histogram.max))</td></tr>"
        }
        return html + "</table>"
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        let power = pow(10, floor(log10(value)))
        for m in [1.0, 2, 5, 10] where m * power >= value { return m * power }
        return 10 * power
    }

    private static func f(_ v: Double) -> String { LoadQuantity.fixed(v, 1) }
}
