/// Reading the formats `UnixTime.format` writes (and, for HTTP, the two obsolete ones).
extension UnixTime {
    /// The Unix time `text` names in `format`.
    /// - Parameter text: the time as written.
    /// - Parameter format: the format it is written in.
    /// - Parameter now: for RFC 850's two-digit years (RFC 9110: a year more than 50 years in
    ///   the future is in the past century).
    /// - Throws: `ParseError` naming the offset and what was expected.
    public static func parse(_ text: String, _ format: Format, now: Double = 0) throws -> Double {
        var reader = Reader(bytes: Array(text.utf8), format: format)
        switch format {
        case .iso8601: return try reader.iso8601()
        case .iso8601Basic: return try reader.basic()
        case .http: return try reader.http(now: now)
        }
    }

    struct Reader {
        let bytes: [UInt8]
        let format: Format
        var i = 0

        func fail(_ reason: String) -> ParseError { ParseError(format: format, offset: min(i, bytes.count) + 1, reason: reason) }

        mutating func digits(_ count: Int, _ what: String) throws -> Int {
            var n = 0
            for _ in 0..<count {
                guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("expected \(count) digits of the \(what)") }
                n = n * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return n
        }

        mutating func expect(_ c: UInt8, _ what: String) throws {
            guard i < bytes.count, bytes[i] == c else { throw fail("expected \(what)") }
            i += 1
        }

        mutating func word(_ choices: [String], _ what: String) throws -> Int {
            for (n, choice) in choices.enumerated() {
                let w = Array(choice.utf8)
                if bytes.count - i >= w.count, Array(bytes[i..<i + w.count]) == w { i += w.count; return n }
            }
            throw fail("expected \(what)")
        }

        func end() throws { if i < bytes.count { throw fail("unexpected text after the time") } }

        func time(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, at start: Int) throws -> Double {
            guard (1...12).contains(mo) else { throw ParseError(format: format, offset: start + 1, reason: "month \(mo) is not 1 to 12") }
            guard d >= 1, d <= CivilDate.daysIn(month: mo, year: y) else { throw ParseError(format: format, offset: start + 1, reason: "day \(d) is not in month \(mo) of \(y)") }
            guard h <= 23, mi <= 59, s <= 60 else { throw ParseError(format: format, offset: start + 1, reason: "\(h):\(mi):\(s) is not a time of day") }
            // A leap second (:60) is read as the next second, as POSIX times have none.
            return Double(CivilDate.days(year: y, month: mo, day: d) * 86400 + h * 3600 + mi * 60 + s)
        }

        mutating func iso8601() throws -> Double {
            let y = try digits(4, "year"); try expect(0x2D, "\"-\" after the year")
            let mo = try digits(2, "month"); try expect(0x2D, "\"-\" after the month")
            let d = try digits(2, "day")
            guard i < bytes.count, bytes[i] == 0x54 || bytes[i] == 0x74 else { throw fail("expected \"T\" between the date and the time") }
            i += 1
            let h = try digits(2, "hour"); try expect(0x3A, "\":\" after the hour")
            let mi = try digits(2, "minute"); try expect(0x3A, "\":\" after the minute")
            let s = try digits(2, "second")
            var fraction = 0.0
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                var scale = 0.1, any = false
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { fraction += Double(bytes[i] - 0x30) * scale; scale /= 10; i += 1; any = true }
                if !any { throw fail("expected digits after \".\"") }
            }
            let offset = try zone(example: "+01:00")
            try end()
            return try time(y, mo, d, h, mi, s, at: 0) - Double(offset) + fraction
        }

        mutating func basic() throws -> Double {
            let y = try digits(4, "year"), mo = try digits(2, "month"), d = try digits(2, "day")
            try expect(0x54, "\"T\" between the date and the time")
            let h = try digits(2, "hour"), mi = try digits(2, "minute"), s = try digits(2, "second")
            let offset = try zone(example: "+0100")
            try end()
            return try time(y, mo, d, h, mi, s, at: 0) - Double(offset)
        }

        /// The zone after a time, in seconds east of UTC: `Z`, or `+hh:mm`, `+hhmm` or `+hh` (ISO
        /// 8601's extended and basic forms alike), `-` west.
        mutating func zone(example: String) throws -> Int {
            guard i < bytes.count else { throw fail("expected \"Z\" or an offset (\(example)) after the time") }
            switch bytes[i] {
            case 0x5A, 0x7A:
                i += 1
                return 0
            case 0x2B, 0x2D:
                let sign = bytes[i] == 0x2D ? -1 : 1
                i += 1
                let oh = try digits(2, "offset hours")
                var om = 0
                if i < bytes.count {
                    if bytes[i] == 0x3A { i += 1 }
                    om = try digits(2, "offset minutes")
                }
                guard oh <= 23, om <= 59 else { throw fail("the offset is out of range") }
                return sign * (oh * 3600 + om * 60)
            default:
                throw fail("expected \"Z\" or an offset (\(example)) after the time")
            }
        }

        mutating func clock() throws -> (Int, Int, Int) {
            let h = try digits(2, "hour"); try expect(0x3A, "\":\" after the hour")
            let mi = try digits(2, "minute"); try expect(0x3A, "\":\" after the minute")
            return (h, mi, try digits(2, "second"))
        }

        mutating func http(now: Double) throws -> Double {
            // asctime: "Sun Nov  6 08:49:37 1994"
            if bytes.count >= 4, bytes[3] == 0x20 {
                _ = try word(days, "a day name (Mon … Sun)"); try expect(0x20, "a space")
                let mo = try word(months, "a month name (Jan … Dec)") + 1; try expect(0x20, "a space")
                var d: Int
                if i < bytes.count, bytes[i] == 0x20 { i += 1; d = try digits(1, "day") } else { d = try digits(2, "day") }
                try expect(0x20, "a space")
                let (h, mi, s) = try clock(); try expect(0x20, "a space")
                let y = try digits(4, "year")
                try end()
                return try time(y, mo, d, h, mi, s, at: 0)
            }
            // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"
            if let comma = bytes.firstIndex(of: 0x2C), comma > 3 {
                _ = try word(longDays, "a day name (Monday … Sunday)"); try expect(0x2C, "\",\" after the day name"); try expect(0x20, "a space")
                let d = try digits(2, "day"); try expect(0x2D, "\"-\" after the day")
                let mo = try word(months, "a month name (Jan … Dec)") + 1; try expect(0x2D, "\"-\" after the month")
                let yy = try digits(2, "year"); try expect(0x20, "a space")
                let (h, mi, s) = try clock(); try expect(0x20, "a space")
                _ = try word(["GMT"], "\"GMT\""); try end()
                // RFC 9110 §5.6.7: a year that would be more than 50 years ahead is in the past century.
                let current = Self.year(of: now)
                var y = current / 100 * 100 + yy
                if y > current + 50 { y -= 100 }
                return try time(y, mo, d, h, mi, s, at: 0)
            }
            // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
            _ = try word(days, "a day name (Mon … Sun)"); try expect(0x2C, "\",\" after the day name"); try expect(0x20, "a space")
            let d = try digits(2, "day"); try expect(0x20, "a space")
            let mo = try word(months, "a month name (Jan … Dec)") + 1; try expect(0x20, "a space")
            let y = try digits(4, "year"); try expect(0x20, "a space")
            let (h, mi, s) = try clock(); try expect(0x20, "a space")
            _ = try word(["GMT"], "\"GMT\""); try end()
            return try time(y, mo, d, h, mi, s, at: 0)
        }

        static func year(of time: Double) -> Int {
            let day = Int((time / 86400).rounded(.down))
            return CivilDate.date(ofDay: day).year
        }
    }
}
