import PekitHTTP

/// The one-line progress a person watches on standard error: bytes so far (of the total when
/// known), the rate, and the time left; rewritten in place, ended with a newline.
final class ProgressLine {
    private var shown = false
    private var lastBatchLine = -1.0

    static func size(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(n), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func time(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// A download: bytes so far (of the total when known), the rate and the time left.
    func update(_ p: SendOptions.Progress) {
        let elapsed = p.elapsed.inSeconds
        let rate = elapsed > 0 ? Double(p.downloaded) / elapsed : 0
        var line = Self.size(p.downloaded)
        if p.downloadTotal > 0 {
            line += " of \(Self.size(p.downloadTotal)) (\(Int(Double(p.downloaded) * 100 / Double(p.downloadTotal)))%)"
        }
        line += "  \(Self.size(Int64(rate)))/s"
        if p.downloadTotal > 0, rate > 0, p.downloaded < p.downloadTotal {
            line += "  ETA \(Self.time(Double(p.downloadTotal - p.downloaded) / rate))"
        }
        show(line)
    }

    /// A batch: how many are done (of how many), failed and in flight, and the rate.
    /// At most five times a second, and at the end.
    func update(done: Int, failed: Int, inFlight: Int, total: Int, elapsed: Double) {
        guard elapsed - lastBatchLine >= 0.2 || done == total else { return }
        lastBatchLine = elapsed
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        show("\(done)/\(total) done, \(failed) failed, \(inFlight) in flight  " + String(format: "%.1f", rate) + "/s")
    }

    /// Any line of progress (`pekit test`'s files done).
    func show(text: String) { show(text) }

    private func show(_ line: String) {
        Output.stderr.write("\r\u{1B}[K" + line)
        Output.stderr.flush()
        shown = true
    }

    /// Ends the line (when one was shown); the next update starts a new one.
    func finish() {
        if shown { Output.stderr.write("\n"); Output.stderr.flush() }
        shown = false
        lastBatchLine = -1
    }
}
