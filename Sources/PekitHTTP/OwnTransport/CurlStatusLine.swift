import PekitCore

/// libcurl 7.88's reading of a status line (Curl_http_readwrite_headers): `sscanf(line,
/// " HTTP/%1d.%1d%c%3d%c")` and what it makes of the fields it got, byte for byte, including its
/// leniencies (a line whose version it cannot read is `HTTP/1.0 200`).
enum CurlStatusLine {
    enum Outcome {
        case status(code: Int, version: Int)
        case failure(ResponseReader.Failure)
    }

    static func read(_ raw: UnsafeRawBufferPointer) -> Outcome {
        // sscanf reads a C string: up to the first NUL.
        let n = ByteSearch.first(0x00, in: raw, from: 0) ?? raw.count
        var i = 0
        func digit(_ at: Int) -> Int? { at < n && raw[at] >= 0x30 && raw[at] <= 0x39 ? Int(raw[at] - 0x30) : nil }
        func skipSpace() { while i < n, ResponseReader.isSpace(raw[i]) { i += 1 } }
        func literal(_ text: StaticString) -> Bool {
            let c = text.utf8CodeUnitCount
            guard n - i >= c, raw[i..<i + c].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: c)) else { return false }
            i += c
            return true
        }
        /// `%Nd`: blanks skipped, a sign, then digits, N characters at most (sign included).
        func integer(width: Int) -> Int? {
            skipSpace()
            var left = width, negative = false
            if i < n, raw[i] == 0x2B || raw[i] == 0x2D { negative = raw[i] == 0x2D; i += 1; left -= 1 }
            var value = 0, digits = 0
            while left > 0, let d = digit(i) { value = value &* 10 &+ d; i += 1; left -= 1; digits += 1 }
            return digits > 0 ? (negative ? -value : value) : nil
        }
        var nc = 0, major = 0, minor = 0, separator: UInt8 = 0, code = 0, digit4: UInt8 = 0
        scan: do {
            skipSpace()
            guard literal("HTTP/") else {
                // The input ending before the first conversion is sscanf's EOF, not 0.
                if raw[i..<n].elementsEqual("HTTP/".utf8.prefix(n - i)) { nc = -1 }
                break scan
            }
            skipSpace()
            if i == n { nc = -1; break scan }
            guard let a = integer(width: 1) else { break scan }
            major = a; nc = 1
            guard i < n, raw[i] == 0x2E else { break scan }
            i += 1
            guard let b = integer(width: 1) else { break scan }
            minor = b; nc = 2
            guard i < n else { break scan }
            separator = raw[i]; i += 1; nc = 3
            guard let c = integer(width: 3) else { break scan }
            code = c; nc = 4
            guard i < n else { break scan }
            digit4 = raw[i]; nc = 5
        }
        var version = 0
        if nc == 1 && major >= 2, let two = secondForm(raw, n) {
            // " HTTP/%1[23] %d": HTTP/2 or HTTP/3 with no minor version.
            code = two
            minor = 0
            nc = 4
            separator = 0x20
        } else if (digit4 >= 0x30 && digit4 <= 0x39) || (nc >= 4 && code < 100) {
            return .failure(.init(code: 1, reason: "Unsupported response code in HTTP response"))
        }
        if nc >= 4 && separator == 0x20 {
            version = minor + 10 * major
            guard version == 10 || version == 11 || version == 20 else {
                return .failure(.init(code: 1, reason: "Unsupported HTTP version (\(version / 10).\(version % 10)) in response"))
            }
            return .status(code: code, version: version)
        }
        if nc == 0 {
            // " HTTP %3d" cannot match a line that starts "HTTP/" (the only ones that get here):
            // libcurl's last resort takes the line for "HTTP/1.0 200".
            return .status(code: 200, version: 10)
        }
        return .failure(.init(code: 1, reason: "Unsupported HTTP version in response"))
    }

    /// `sscanf(line, " HTTP/%1[23] %d", …) == 2`: the code when it matches.
    private static func secondForm(_ raw: UnsafeRawBufferPointer, _ n: Int) -> Int? {
        var i = 0
        while i < n, ResponseReader.isSpace(raw[i]) { i += 1 }
        guard n - i >= 6, raw[i..<i + 5].elementsEqual("HTTP/".utf8), raw[i + 5] == 0x32 || raw[i + 5] == 0x33 else { return nil }
        i += 6
        while i < n, ResponseReader.isSpace(raw[i]) { i += 1 }
        var negative = false
        if i < n, raw[i] == 0x2B || raw[i] == 0x2D { negative = raw[i] == 0x2D; i += 1 }
        var magnitude: UInt64 = 0, digits = 0, overflow = false
        while i < n, raw[i] >= 0x30 && raw[i] <= 0x39 {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(raw[i] - 0x30))
            overflow = overflow || o1 || o2
            magnitude = plus
            i += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return Int(Int32(truncatingIfNeeded: strtolResult(magnitude: magnitude, negative: negative, overflow: overflow)))
    }

    /// glibc's `%d` converts with strtol (a 64-bit long that saturates at LONG_MAX or LONG_MIN
    /// when the digits overflow it) and then stores the long into the int: its low 32 bits.
    private static func strtolResult(magnitude: UInt64, negative: Bool, overflow: Bool) -> Int64 {
        if negative {
            return overflow || magnitude > UInt64(Int64.max) + 1 ? Int64.min : Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        return overflow || magnitude > UInt64(Int64.max) ? Int64.max : Int64(magnitude)
    }
}
