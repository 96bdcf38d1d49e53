/// The cookie-date algorithm of RFC 6265 §5.1.1, to the letter: tolerant of the odd formats
/// servers send, strict about the ranges.
public enum CookieDate {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not a cookie date.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func isDelimiter(_ b: UInt8) -> Bool {
            b == 0x09 || (0x20...0x2F).contains(b) || (0x3B...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
        }
        var tokens: [ArraySlice<UInt8>] = []
        var i = 0
        while i < bytes.count {
            while i < bytes.count, isDelimiter(bytes[i]) { i += 1 }
            let start = i
            while i < bytes.count, !isDelimiter(bytes[i]) { i += 1 }
            if i > start { tokens.append(bytes[start..<i]) }
        }
        var time: (Int, Int, Int)?, day: Int?, month: Int?, year: Int?
        for token in tokens {
            if time == nil, let t = hmsTime(token) { time = t; continue }
            if day == nil, let d = leadingDigits(token, min: 1, max: 2) { day = d; continue }
            if month == nil, let m = monthNumber(token) { month = m; continue }
            if year == nil, let y = leadingDigits(token, min: 2, max: 4) { year = y; continue }
        }
        guard var y = year, let d = day, let m = month, let (h, mi, s) = time else { return nil }
        if (70...99).contains(y) { y += 1900 } else if (0...69).contains(y) { y += 2000 }
        guard (1...31).contains(d), y >= 1601, h <= 23, mi <= 59, s <= 59 else { return nil }
        guard d <= CivilDate.daysIn(month: m, year: y) else { return nil }
        return Int64(CivilDate.days(year: y, month: m, day: d)) * 86400 + Int64(h * 3600 + mi * 60 + s)
    }

    /// 1*2DIGIT followed by a non-digit or the end (`min`…`max` digits).
    static func leadingDigits(_ token: ArraySlice<UInt8>, min: Int, max: Int) -> Int? {
        var n = 0, count = 0
        for b in token {
            guard (0x30...0x39).contains(b) else { break }
            count += 1
            if count > max { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return count >= min ? n : nil
    }

    /// hms-time = time-field ":" time-field ":" time-field, then a non-digit or the end.
    static func hmsTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var fields: [Int] = []
        var i = token.startIndex
        for index in 0..<3 {
            var n = 0, count = 0
            while i < token.endIndex, (0x30...0x39).contains(token[i]), count < 2 { n = n * 10 + Int(token[i] - 0x30); count += 1; i += 1 }
            guard count >= 1 else { return nil }
            fields.append(n)
            if index < 2 {
                guard i < token.endIndex, token[i] == 0x3A else { return nil }
                i += 1
            }
        }
        if i < token.endIndex, (0x30...0x39).contains(token[i]) { return nil }
        return (fields[0], fields[1], fields[2])
    }

    static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].firstIndex(of: prefix).map { $0 + 1 }
    }

    /// The UTC calendar date and time of `seconds` since 1970: year, month, day, seconds into the
    /// day, days since 1970.
    static func civil(_ seconds: Int64) -> (year: Int, month: Int, day: Int, second: Int, days: Int) {
        let (days, rest) = CivilDate.split(seconds)
        let (y, m, d) = CivilDate.date(ofDay: days)
        return (y, m, d, rest, days)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// An HTTP date for `seconds` (`Thu, 01 Jan 1970 00:00:00 GMT`).
    public static func format(_ seconds: Int64) -> String {
        let t = civil(seconds)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((t.days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekday), \(two(t.day)) \(months[t.month - 1]) \(t.year) \(two(t.second / 3600)):\(two(t.second / 60 % 60)):\(two(t.second % 60)) GMT"
    }

    /// An ISO 8601 UTC time for `seconds` (`2038-06-09T10:18:14Z`), as `pekit cookies` prints it.
    public static func iso8601(_ seconds: Int64) -> String {
        let t = civil(seconds)
        guard (1000...9999).contains(t.year) else {
            return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.second / 3600)):\(two(t.second / 60 % 60)):\(two(t.second % 60))Z"
        }
        // Four-digit years (every date a cookie keeps) written as bytes: `pekit cookies list`
        // writes one a cookie, and interpolation cost more than the rest of the line.
        return String(unsafeUninitializedCapacity: 20) { out in
            func put(_ n: Int, _ digits: Int, at i: Int) {
                var n = n
                for k in stride(from: digits - 1, through: 0, by: -1) { out[i + k] = UInt8(0x30 + n % 10); n /= 10 }
            }
            put(t.year, 4, at: 0); out[4] = 0x2D; put(t.month, 2, at: 5); out[7] = 0x2D; put(t.day, 2, at: 8)
            out[10] = 0x54; put(t.second / 3600, 2, at: 11); out[13] = 0x3A; put(t.second / 60 % 60, 2, at: 14)
            out[16] = 0x3A; put(t.second % 60, 2, at: 17); out[19] = 0x5A
            return 20
        }
    }
}
