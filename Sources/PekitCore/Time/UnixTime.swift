/// Unix times (seconds since 1970-01-01T00:00:00Z, fractions allowed) as the text formats HTTP
/// and signing schemes use, and back.
public enum UnixTime {
    /// A text form of a time.
    public enum Format: String, Sendable, CaseIterable {
        /// `2026-11-30T12:00:00Z` (RFC 3339; parsing also takes `+01:00` offsets and fractions).
        case iso8601 = "iso8601"
        /// `20261130T120000Z`, as AWS Signature V4 writes `X-Amz-Date`.
        case iso8601Basic = "iso8601-basic"
        /// IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`; parsing also takes RFC 850 and asctime,
        /// the three forms RFC 9110 §5.6.7 requires a recipient to accept.
        case http = "http"
    }

    /// Why text is not a time in the format: what, and the 1-based byte offset.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The format the text was read as.
        public let format: Format
        /// Where, as a 1-based offset.
        public let offset: Int
        /// What is wrong there.
        public let reason: String
        public var description: String { "not \(format == .http ? "an HTTP" : "an \(format.rawValue)") time at byte \(offset): \(reason)" }
    }

    static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longDays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The text of `time` in `format` (UTC). Fractions of a second are written to the
    /// millisecond in ISO 8601 and dropped in the others.
    /// - Throws: `ParseError`-free; a time outside years 1–9999 gives `nil`.
    public static func format(_ time: Double, _ format: Format) -> String? {
        guard time.isFinite else { return nil }
        let whole = time.rounded(.down)
        guard whole >= -62_135_596_800, whole < 253_402_300_800 else { return nil }  // 0001-01-01 … 9999-12-31
        let (day, rest) = CivilDate.split(Int64(whole))
        let (y, mo, d) = CivilDate.date(ofDay: day)
        let h = rest / 3600, mi = rest / 60 % 60, s = rest % 60
        func pad(_ n: Int, _ width: Int) -> String { let t = String(n); return String(repeating: "0", count: max(0, width - t.count)) + t }
        switch format {
        case .iso8601:
            var text = "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2))"
            let millis = Int(((time - whole) * 1000).rounded(.down))
            if millis > 0 { text += "." + pad(millis, 3) }
            return text + "Z"
        case .iso8601Basic:
            return "\(pad(y, 4))\(pad(mo, 2))\(pad(d, 2))T\(pad(h, 2))\(pad(mi, 2))\(pad(s, 2))Z"
        case .http:
            let weekday = ((day % 7) + 11) % 7  // 1970-01-01 was a Thursday
            return "\(days[weekday]), \(pad(d, 2)) \(months[mo - 1]) \(pad(y, 4)) \(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2)) GMT"
        }
    }
}
