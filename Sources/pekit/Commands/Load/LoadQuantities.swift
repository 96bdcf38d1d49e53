/// The quantities `pekit load` reads from its command line: durations (`10s`, `500ms`, `2m`,
/// `1h`, `250us`, a bare number in seconds) and rates (`100`, `100/s`, `6000/m`, `50/h`).
enum LoadQuantity {
    /// Seconds in a duration, or nil when the text is not one.
    static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number.isFinite, number >= 0 else { return nil }
            return number * scale
        }
        guard let number = Double(text), number.isFinite, number >= 0 else { return nil }
        return number
    }

    /// Requests a second in a rate, or nil when the text is not one.
    static func perSecond(_ text: String) -> Double? {
        var number = Substring(text), scale = 1.0
        if let slash = text.firstIndex(of: "/") {
            number = text[..<slash]
            switch text[text.index(after: slash)...] {
            case "s", "1s": scale = 1
            case "m", "1m": scale = 1.0 / 60
            case "h", "1h": scale = 1.0 / 3600
            default: return nil
            }
        }
        guard let n = Double(number), n.isFinite, n > 0 else { return nil }
        return n * scale
    }

    /// Microseconds as a person reads them: `850us`, `1.04ms`, `2.50s`.
    static func micros(_ value: Int64) -> String {
        if value < 1000 { return "\(value)us" }
        if value < 1_000_000 { return fixed(Double(value) / 1000, 2) + "ms" }
        return fixed(Double(value) / 1e6, 2) + "s"
    }

    /// `value` with `digits` decimals (no Foundation formatter needed for it).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return "\(value)" }
        let whole = Int64(scaled)
        let intPart = whole / Int64(scale), frac = whole % Int64(scale)
        var text = "\(value < 0 && whole != 0 ? "-" : "")\(intPart)"
        if digits > 0 {
            let f = String(frac)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
