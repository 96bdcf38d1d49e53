import Foundation
import PekitCore
import PekitHTTP

/// What `pekit load` prints: a summary for people (as wrk2 lays its out), JSON for programs
/// (and for `--compare`), and HdrHistogram's percentile distribution (its `.hgrm` text, or CSV).
struct LoadReport {
    let target: String
    let result: LoadResult
    let thresholds: [LoadThreshold]

    /// The percentiles every report lists.
    static let percentiles: [Double] = [50, 75, 90, 99, 99.9, 99.99, 99.999]

    static func label(_ p: Double) -> String {
        p == p.rounded() ? "p\(Int(p))" : "p\(p)"
    }

    var model: String { result.plan.rate == nil ? "closed" : "open" }

    // MARK: Text

    var text: String {
        let r = result, plan = r.plan
        var lines: [String] = []
        let length = plan.duration.map { "\(LoadQuantity.fixed($0, $0 == $0.rounded() ? 0 : 1))s" } ?? "\(plan.requests ?? 0) requests"
        lines.append("load \(target): \(length), \(plan.connections) connection\(plan.connections == 1 ? "" : "s")"
                     + (plan.rate.map { ", \(LoadQuantity.fixed($0, $0 == $0.rounded() ? 0 : 2)) requests/s (open model)" } ?? " (closed model)")
                     + (plan.warmup > 0 ? ", after \(LoadQuantity.fixed(plan.warmup, 1))s of warm-up" : ""))
        lines.append("")
        var header = "  latency      "
        for p in Self.percentiles { header += Self.label(p).leftAligned(10) }
        header += "max"
        lines.append(header)
        func row(_ name: String, _ h: LatencyHistogram) -> String {
            var line = "  " + name.leftAligned(13)
            for p in Self.percentiles { line += LoadQuantity.micros(h.value(atPercentile: p)).leftAligned(10) }
            return line + LoadQuantity.micros(h.max)
        }
        if r.latency.count == 0 {
            lines.removeLast()
            lines.append("  latency: no answers to measure")
        } else if let corrected = r.corrected {
            lines.append(row("corrected", corrected))
            lines.append(row("recorded", r.latency))
            lines.append("  (corrected: from when the schedule meant each request to start; recorded: from when it went out)")
        } else {
            lines.append(row("recorded", r.latency))
        }
        let shownPhases = r.phases.filter { $0.histogram.max > 0 && $0.name != "total" }
        if !shownPhases.isEmpty {
            lines.append("  phases (p50 / p99 from the request's start, as curl's time_* measure them): "
                         + shownPhases.map { "\($0.name) \(LoadQuantity.micros($0.histogram.value(atPercentile: 50))) / \(LoadQuantity.micros($0.histogram.value(atPercentile: 99)))" }.joined(separator: ", "))
        }
        lines.append("")
        lines.append("  \(r.requests) requests in \(LoadQuantity.fixed(r.seconds, 2))s, \(ProgressLine.size(r.bytesReceived)) read"
                     + (r.warmupRequests > 0 ? " (and \(r.warmupRequests) in the warm-up, not counted)" : ""))
        lines.append("  requests/s: \(LoadQuantity.fixed(r.requestsPerSecond, 2))")
        let statuses = r.statuses.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        if !statuses.isEmpty { lines.append("  statuses: \(statuses)") }
        if r.errorCount > 0 {
            let kinds = r.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("  errors: \(r.errorCount) (\(LoadQuantity.fixed(r.errorRate * 100, 2))%): \(kinds)")
            for message in r.messages { lines.append("    \(message.count) × \(printable(message.text))") }
        } else {
            lines.append("  errors: 0")
        }
        if r.unanswered > 0 { lines.append("  \(r.unanswered) still in flight at the end, not counted") }
        if r.behind > 0 {
            lines.append("  behind schedule: \(r.behind) requests never went out (every connection was busy; more --connections, or a lower --rate)")
        }
        if !thresholds.isEmpty {
            lines.append("")
            for t in thresholds { lines.append("  \(t.holds(for: r) ? "✓" : "✗") \(t.text)  (\(t.shown(r)))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: JSON

    private static func number(_ x: Double) -> PekitValue { x.isFinite ? .number(x) : .null }

    private static func summary(_ h: LatencyHistogram) -> PekitValue {
        var entries: [PekitMap.Entry] = [.init(key: "count", value: .integer(h.count)), .init(key: "min", value: .integer(h.min)),
                                         .init(key: "mean", value: number(h.mean)), .init(key: "stddev", value: number(h.standardDeviation))]
        for p in percentiles { entries.append(.init(key: ByteString(label(p)), value: .integer(h.value(atPercentile: p)))) }
        entries.append(.init(key: "max", value: .integer(h.max)))
        return .map(PekitMap(ordered: entries))
    }

    var json: PekitValue {
        let r = result, plan = r.plan
        func entry(_ key: String, _ value: PekitValue) -> PekitMap.Entry { .init(key: ByteString(key), value: value) }
        let errors = PekitValue.map(PekitMap(ordered: [entry("total", .integer(r.errorCount)), entry("rate", Self.number(r.errorRate))]
                                             + r.errors.sorted { $0.key < $1.key }.map { entry($0.key, .integer($0.value)) }))
        let statuses = PekitValue.map(PekitMap(ordered: r.statuses.sorted { $0.key < $1.key }.map { entry(String($0.key), .integer($0.value)) }))
        let phases = PekitValue.map(PekitMap(ordered: r.phases.map { entry($0.name, Self.summary($0.histogram)) }))
        let timeline = PekitValue.array(r.timeline.enumerated().map { i, s in
            .map(PekitMap(ordered: [entry("second", .integer(Int64(i))), entry("requests", .integer(s.requests)), entry("errors", .integer(s.errors))]))
        })
        let checks = PekitValue.array(thresholds.map { t in
            .map(PekitMap(ordered: [entry("threshold", .text(t.text)), entry("value", Self.number(t.value(in: r))), entry("passed", .boolean(t.holds(for: r)))]))
        })
        return .map(PekitMap(ordered: [
            entry("target", .text(target)), entry("model", .text(model)), entry("connections", .integer(Int64(plan.connections))),
            entry("rate", plan.rate.map { .number($0) } ?? .null), entry("duration", plan.duration.map { .number($0) } ?? .null),
            entry("warmup", .number(plan.warmup)),
            entry("seconds", Self.number(r.seconds)), entry("requests", .integer(r.requests)),
            entry("requests_per_second", Self.number(r.requestsPerSecond)), entry("bytes_received", .integer(r.bytesReceived)),
            entry("errors", errors), entry("statuses", statuses), entry("unanswered", .integer(r.unanswered)), entry("behind", .integer(r.behind)),
            entry("latency_unit", .text("us")),
            entry("latency", .map(PekitMap(ordered: [entry("recorded", Self.summary(r.latency)),
                                                     entry("corrected", r.corrected.map(Self.summary) ?? .null)]))),
            entry("phases", phases), entry("timeline", timeline), entry("thresholds", checks),
        ]))
    }

    // MARK: HdrHistogram's percentile distribution

    /// HdrHistogram's `outputPercentileDistribution` of `histogram` in milliseconds (its Java
    /// format, which its plotter reads): the value, the percentile, the count to it, 1/(1-p).
    static func distribution(_ histogram: LatencyHistogram, csv: Bool) -> String {
        let digits = histogram.digits
        var out = csv ? "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n"
                      : ["Value".rightAligned(12), "Percentile".rightAligned(14), "TotalCount".rightAligned(10), "1/(1-Percentile)".rightAligned(14)].joined(separator: " ") + "\n\n"
        for step in histogram.percentileDistribution(ticksPerHalfDistance: 5) {
            let value = Double(step.value) / 1000, share = step.percentile / 100
            if csv {
                out += String(format: "%.\(digits)f,%.12f,%lld,", value, share, step.totalCount) + (step.percentile == 100 ? "Infinity\n" : String(format: "%.2f\n", 1 / (1 - share)))
            } else if step.percentile == 100 {
                out += String(format: "%12.\(digits)f %2.12f %10lld\n", value, share, step.totalCount)
            } else {
                out += String(format: "%12.\(digits)f %2.12f %10lld %14.2f\n", value, share, step.totalCount, 1 / (1 - share))
            }
        }
        if csv { return out }
        out += String(format: "#[Mean    = %12.\(digits)f, StdDeviation   = %12.\(digits)f]\n", histogram.mean / 1000, histogram.standardDeviation / 1000)
        out += String(format: "#[Max     = %12.\(digits)f, Total count    = %12lld]\n", Double(histogram.max) / 1000, histogram.count)
        out += String(format: "#[Buckets = %12d, SubBuckets     = %12d]\n", histogram.bucketCount, histogram.subBucketCount)
        return out
    }

    // MARK: HdrHistogram's log

    /// HdrHistogram's log (format 1.3, as its HistogramLogWriter writes it): one line a second of
    /// the run, its start, length, largest value in milliseconds and compressed histogram
    /// (microseconds; the corrected latencies in the open model). HistogramLogProcessor, the
    /// plotter and the `hdrhistogram` PyPI package read it and merge its intervals.
    var log: String {
        let start = result.startTime
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start))
        var out = "#[Histogram log format version 1.3]\n"
        out += "#[StartTime: \(LoadQuantity.fixed(start, 3)) (seconds since epoch), \(date)]\n"
        out += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        for interval in result.intervals {
            out += "\(LoadQuantity.fixed(interval.start, 3)),\(LoadQuantity.fixed(interval.length, 3)),\(LoadQuantity.fixed(Double(interval.max) / 1000, 3)),"
            out += Base64.encode(interval.histogram) + "\n"
        }
        return out
    }

    // MARK: --compare

    /// This run beside an earlier one (its `--output json`): requests a second, errors and each
    /// latency percentile, with the change.
    func compared(with earlier: PekitValue, name: String) throws -> String {
        guard case .map(let old) = earlier, case .map(let latency)? = old["latency"] else {
            throw CommandFailure(message: "pekit load: --compare \(name): not the JSON of a pekit load run (no \"latency\")")
        }
        let which: ByteString = result.corrected != nil ? "corrected" : "recorded"
        guard case .map(let oldLatency)? = latency[which] ?? latency["recorded"] else {
            throw CommandFailure(message: "pekit load: --compare \(name): its latency has no \"recorded\" summary")
        }
        let now = result.corrected ?? result.latency
        func change(_ before: Double?, _ after: Double) -> String {
            guard let before, before != 0 else { return "" }
            let delta = (after - before) / before * 100
            return (delta >= 0 ? "+" : "") + LoadQuantity.fixed(delta, 1) + "%"
        }
        var lines = ["".leftAligned(14) + name.leftAligned(16) + "this run".leftAligned(16) + "change"]
        let oldRPS = old["requests_per_second"]?.doubleValue
        lines.append("requests/s".leftAligned(14) + (oldRPS.map { LoadQuantity.fixed($0, 1) } ?? "-").leftAligned(16)
                     + LoadQuantity.fixed(result.requestsPerSecond, 1).leftAligned(16) + change(oldRPS, result.requestsPerSecond))
        var oldErrorRate: Double?
        if case .map(let errors)? = old["errors"] { oldErrorRate = errors["rate"]?.doubleValue }
        lines.append("errors".leftAligned(14) + (oldErrorRate.map { LoadQuantity.fixed($0 * 100, 2) + "%" } ?? "-").leftAligned(16)
                     + (LoadQuantity.fixed(result.errorRate * 100, 2) + "%").leftAligned(16))
        for p in Self.percentiles.map(Optional.some) + [nil] {
            let key = p.map(Self.label) ?? "max"
            let before = oldLatency[ByteString(key)]?.doubleValue
            let after = Double(p.map { now.value(atPercentile: $0) } ?? now.max)
            lines.append("\(which) \(key)".leftAligned(14) + (before.map { LoadQuantity.micros(Int64($0)) } ?? "-").leftAligned(16)
                         + LoadQuantity.micros(Int64(after)).leftAligned(16) + change(before, after))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

private extension String {
    func leftAligned(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    func rightAligned(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
