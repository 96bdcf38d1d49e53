import PekitHTTP

/// A pass/fail rule on a load run, as k6's thresholds are (`p99<200ms`, `errors<0.1%`): any
/// threshold that does not hold makes `pekit load` exit with k6's status for it, 99.
///
/// Metrics: `p50`, `p99.9`, … (latency at that percentile: in the open model the corrected one,
/// what a user on the schedule waited), `min`, `mean`, `max` (latency; a bare number is in
/// milliseconds, as k6 reads it, or give `us`, `ms`, `s`, `m`), `errors` (a count, or a share with
/// `%`), `rps` (requests a second), `requests`. Operators: `<`, `<=`, `>`, `>=`, `==`, `!=`.
struct LoadThreshold: Equatable {
    enum Metric: Equatable {
        case percentile(Double), min, mean, max, errors, errorRate, rps, requests
    }
    let text: String
    let metric: Metric
    let comparison: String
    /// The bound, in the metric's own unit (microseconds for latencies, 0–1 for a share).
    let bound: Double

    /// Reads `text`.
    /// - Throws: `UsageError` naming what is wrong with it.
    init(_ text: String) throws {
        self.text = text
        let compact = text.filter { $0 != " " }
        guard let opStart = compact.firstIndex(where: { "<>=!".contains($0) }) else {
            throw UsageError(command: "load", message: "--threshold '\(text)': no comparison (write METRIC<VALUE, e.g. p99<200ms or errors<0.1%)")
        }
        let name = String(compact[..<opStart])
        var rest = compact[opStart...]
        let op = ["<=", ">=", "==", "!=", "<", ">"].first { rest.hasPrefix($0) } ?? ""
        guard !op.isEmpty else { throw UsageError(command: "load", message: "--threshold '\(text)': the comparison is one of <, <=, >, >=, ==, !=") }
        rest = rest.dropFirst(op.count)
        comparison = op
        let value = String(rest)
        let latency: Metric?
        switch name {
        case "min": latency = .min
        case "mean", "avg": latency = .mean
        case "max": latency = .max
        case _ where name.hasPrefix("p"):
            guard let p = Double(name.dropFirst()), p >= 0, p <= 100 else {
                throw UsageError(command: "load", message: "--threshold '\(text)': '\(name)' is not a percentile (p50, p99, p99.9 …)")
            }
            latency = .percentile(p)
        default: latency = nil
        }
        if let latency {
            metric = latency
            let seconds = value.last.map { $0.isNumber || $0 == "." } == true ? Double(value).map { $0 / 1000 } : LoadQuantity.seconds(value)
            guard let seconds else { throw UsageError(command: "load", message: "--threshold '\(text)': '\(value)' is not a duration (200ms, 1.5s, 250us; a bare number is milliseconds)") }
            bound = seconds * 1e6
            return
        }
        switch name {
        case "errors":
            if value.hasSuffix("%") {
                guard let share = Double(value.dropLast()), share >= 0 else { throw UsageError(command: "load", message: "--threshold '\(text)': '\(value)' is not a share") }
                metric = .errorRate
                bound = share / 100
            } else {
                guard let n = Double(value), n >= 0 else { throw UsageError(command: "load", message: "--threshold '\(text)': '\(value)' is not a count or a share (0.1%)") }
                metric = .errors
                bound = n
            }
        case "rps", "requests":
            guard let n = Double(value), n >= 0 else { throw UsageError(command: "load", message: "--threshold '\(text)': '\(value)' is not a number") }
            metric = name == "rps" ? .rps : .requests
            bound = n
        default:
            throw UsageError(command: "load", message: "--threshold '\(text)': unknown metric '\(name)' (p50, p99.9, min, mean, max, errors, rps, requests)")
        }
    }

    /// The run's value of the metric, in the metric's unit.
    func value(in result: LoadResult) -> Double {
        let latency = result.corrected ?? result.latency
        switch metric {
        case .percentile(let p): return Double(latency.value(atPercentile: p))
        case .min: return Double(latency.min)
        case .mean: return latency.mean
        case .max: return Double(latency.max)
        case .errors: return Double(result.errorCount)
        case .errorRate: return result.errorRate
        case .rps: return result.requestsPerSecond
        case .requests: return Double(result.requests)
        }
    }

    /// Whether the run meets it.
    func holds(for result: LoadResult) -> Bool {
        let v = value(in: result)
        switch comparison {
        case "<": return v < bound
        case "<=": return v <= bound
        case ">": return v > bound
        case ">=": return v >= bound
        case "==": return v == bound
        default: return v != bound
        }
    }

    /// The value as the report shows it (`1.04ms`, `0.12%`, `512.3/s`).
    func shown(_ result: LoadResult) -> String {
        let v = value(in: result)
        switch metric {
        case .percentile, .min, .mean, .max: return LoadQuantity.micros(Int64(v.rounded()))
        case .errorRate: return LoadQuantity.fixed(v * 100, 3) + "%"
        case .rps: return LoadQuantity.fixed(v, 1) + "/s"
        case .errors, .requests: return "\(Int64(v))"
        }
    }
}
