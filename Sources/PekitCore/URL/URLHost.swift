/// A host as the URL Standard parses it (§3.5): a domain, an IPv4 or IPv6 address, an opaque
/// host (for non-special schemes), or empty.
public enum URLHost: Equatable, Sendable, CustomStringConvertible {
    /// A domain, lower case and ASCII (IDNA applied).
    case domain(String)
    /// An IPv4 address as a number.
    case ipv4(UInt32)
    /// An IPv6 address as its eight pieces.
    case ipv6([UInt16])
    /// The host of a URL with a scheme that is not special, percent-encoded as written.
    case opaque(String)
    /// An empty host (`file:///`).
    case empty

    /// The host serializer (§3.6): IPv6 in brackets with the longest zero run compressed.
    public var description: String {
        switch self {
        case .domain(let d), .opaque(let d): return d
        case .empty: return ""
        case .ipv4(let n):
            var out = ""
            Self.serializeIPv4(n) { out.unicodeScalars.append(Unicode.Scalar($0)) }
            return out
        case .ipv6(let pieces):
            var out = ""
            Self.serializeIPv6(pieces) { out.unicodeScalars.append(Unicode.Scalar($0)) }
            return out
        }
    }

    /// The IPv4 serializer (§3.6), a byte at a time: four decimal numbers and dots.
    static func serializeIPv4(_ n: UInt32, _ write: (UInt8) -> Void) {
        for shift in stride(from: 24, through: 0, by: -8) {
            writeDecimal(Int(n >> UInt32(shift) & 255), write)
            if shift > 0 { write(0x2E) }
        }
    }

    /// `n` (not negative) in decimal, a byte at a time.
    static func writeDecimal(_ n: Int, _ write: (UInt8) -> Void) {
        if n >= 10 { writeDecimal(n / 10, write) }
        write(UInt8(0x30 + n % 10))
    }

    /// The IPv6 serializer (§3.6) in brackets, a byte at a time: the first longest run of two or
    /// more zero pieces is written as "::", the others in lower-case hex without leading zeros.
    static func serializeIPv6(_ pieces: [UInt16], _ write: (UInt8) -> Void) {
        var best = (start: -1, length: 1), i = 0
        while i < 8 {
            if pieces[i] == 0 {
                var j = i
                while j < 8, pieces[j] == 0 { j += 1 }
                if j - i > best.length { best = (i, j - i) }
                i = j
            } else { i += 1 }
        }
        write(0x5B)
        var ignore0 = false
        for k in 0..<8 {
            if ignore0 && pieces[k] == 0 { continue }
            ignore0 = false
            if best.start == k {
                write(0x3A)
                if k == 0 { write(0x3A) }
                ignore0 = true
                continue
            }
            var started = false
            for shift in stride(from: 12, through: 0, by: -4) {
                let digit = UInt8(pieces[k] >> UInt16(shift) & 15)
                if digit == 0 && !started && shift > 0 { continue }
                started = true
                write(digit < 10 ? 0x30 + digit : 0x57 + digit)
            }
            if k != 7 { write(0x3A) }
        }
        write(0x5D)
    }

    /// The forbidden domain code points below U+0080 as a 128-bit mask: the forbidden host code
    /// points (§3.2: NUL, tab, LF, CR, space, # / : < > ? @ [ \\ ] ^ |), the other C0 controls, `%`
    /// and DEL. Constants the compiler folds, as a global would cost a once-check at every byte.
    @inline(__always) static var forbiddenDomainMask: (UInt64, UInt64) {
        let low: UInt64 = 0xFFFF_FFFF | 1 << 0x20 | 1 << 0x23 | 1 << 0x25 | 1 << 0x2F | 1 << 0x3A | 1 << 0x3C | 1 << 0x3E | 1 << 0x3F
        let high: UInt64 = 1 << (0x40 - 64) | 1 << (0x5B - 64) | 1 << (0x5C - 64) | 1 << (0x5D - 64) | 1 << (0x5E - 64) | 1 << (0x7C - 64) | 1 << (0x7F - 64)
        return (low, high)
    }

    /// 1 when the ASCII byte `b` (below 0x80) is in `forbiddenDomainMask`, else 0.
    @inline(__always) static func forbiddenDomainBit(_ b: UInt8) -> UInt64 {
        let mask = forbiddenDomainMask
        return (b < 64 ? mask.0 >> UInt64(b) : mask.1 >> UInt64(b & 63)) & 1
    }

    @inline(__always) static func isForbiddenDomain(_ c: UInt32) -> Bool {
        c < 128 && forbiddenDomainBit(UInt8(c)) != 0
    }

    /// The first forbidden domain code point among ASCII bytes, if any: one test for the whole
    /// name (the bits ORed over it) before a search.
    @inline(__always) static func firstForbiddenDomain(_ ascii: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var any: UInt64 = 0
        for b in ascii { any |= forbiddenDomainBit(b) }
        guard any != 0 else { return nil }
        return ascii.first { isForbiddenDomain(UInt32($0)) }
    }

    /// The forbidden host code points (§3.2) among bytes: NUL, tab, LF, CR, space and the ASCII
    /// the domain mask has above space (not %, DEL or other controls, which opaque hosts allow).
    @inline(__always) static func isForbiddenOpaqueHostByte(_ b: UInt8) -> Bool {
        b == 0x00 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x20
            || (b > 0x20 && b < 0x7F && b != 0x25 && forbiddenDomainBit(b) != 0)
    }

    /// The host parser (§3.5) over UTF-8 bytes. ASCII names that need no percent-decoding or IDNA
    /// (nearly all) are read here without making code points.
    static func parse(bytes input: [UInt8], special: Bool, failure: inout String) -> URLHost? {
        var forbidden: Unicode.Scalar?
        return parse(bytes: input, special: special, failure: &failure, forbidden: &forbidden)
    }

    /// - Parameter forbidden: on a forbidden code point, which one (for the caller to point at).
    static func parse(bytes input: [UInt8], special: Bool, failure: inout String, forbidden: inout Unicode.Scalar?) -> URLHost? {
        input.withUnsafeBufferPointer { parse(buffer: $0, special: special, failure: &failure, forbidden: &forbidden) }
    }

    /// The host parser (§3.5) over UTF-8 bytes where they lie.
    /// - Parameter wellFormed: the bytes are known to be well-formed UTF-8 (a String's), so
    ///   they need no check.
    static func parse(buffer input: UnsafeBufferPointer<UInt8>, special: Bool, wellFormed: Bool = false, failure: inout String, forbidden: inout Unicode.Scalar?) -> URLHost? {
        if input.first == 0x5B {
            guard input.last == 0x5D, input.count >= 2 else { failure = "an IPv6 address must end with \"]\""; return nil }
            guard let pieces = parseIPv6(input[1..<(input.count - 1)], &failure) else { return nil }
            return .ipv6(pieces)
        }
        if !special {
            // An empty opaque host is the empty host (sc:/// has a host, and it is empty).
            if input.isEmpty { return .empty }
            for b in input where isForbiddenOpaqueHostByte(b) {
                forbidden = Unicode.Scalar(b)
                failure = "the host holds the forbidden code point U+\(hexDigitsUpper(UInt32(b)))"; return nil
            }
            return .opaque(String(decoding: PercentEncodeSet.c0Control.encode(bytes: input), as: UTF8.self))
        }
        guard !input.isEmpty else { failure = "the host is empty"; return nil }
        guard input.contains(0x25) else { return domain(input, wellFormed: wellFormed, &failure, forbidden: &forbidden) }
        // Decoding may make ill-formed UTF-8 of any text.
        let decoded = (try? PercentDecoder(mode: .lenient).decode(bytes: input)) ?? Array(input)
        return decoded.withUnsafeBufferPointer { domain($0, wellFormed: false, &failure, forbidden: &forbidden) }
    }

    // The domain steps for a percent-decoded name: an ASCII name is only lower-cased (WPT's url
    // tests: `xn--a` and `xn--` stay as they are), any other goes through UTS #46; then the
    // forbidden code points and IPv4, as for any name.
    private static func domain(_ name: UnsafeBufferPointer<UInt8>, wellFormed: Bool, _ failure: inout String, forbidden: inout Unicode.Scalar?) -> URLHost? {
        guard name.allSatisfy({ $0 < 0x80 }) else {
            if wellFormed || UTF8Validation.firstInvalidIndex(name) == nil { return parseInternationalized(name, &failure, forbidden: &forbidden) }
            return UTF8Decoding.repaired(name).withUnsafeBufferPointer { parseInternationalized($0, &failure, forbidden: &forbidden) }
        }
        var upper = false
        for b in name {
            if b >= 0x61 && b <= 0x7A || b == 0x2E || b == 0x2D || (b >= 0x30 && b <= 0x39) { continue }  // the usual bytes, first
            if b >= 0x41 && b <= 0x5A { upper = true }
            else if isForbiddenDomain(UInt32(b)) {
                forbidden = Unicode.Scalar(b)
                failure = "the host holds the forbidden code point U+\(hexDigitsUpper(UInt32(b)))"; return nil
            }
        }
        // Any form of number reads letters in either case.
        if endsInANumber(name) {
            guard let n = parseIPv4(name, &failure) else { return nil }
            return .ipv4(n)
        }
        return .domain(upper ? ASCII.lowercased(name) : String(decoding: name, as: UTF8.self))
    }

    /// The host parser (§3.5). Returns nil on failure, with the reason in `failure`.
    static func parse(_ input: [Unicode.Scalar], special: Bool, failure: inout String) -> URLHost? {
        parse(bytes: Array(String(String.UnicodeScalarView(input)).utf8), special: special, failure: &failure)
    }

    /// The domain steps for a percent-decoded name that is not ASCII:
    /// UTS #46 to ASCII, then the forbidden code points and IPv4, as for any name.
    static func parseInternationalized(_ utf8: UnsafeBufferPointer<UInt8>, _ failure: inout String, forbidden: inout Unicode.Scalar?) -> URLHost? {
        let host = IDNA.withASCII(utf8: utf8) { ascii -> Result<URLHost, IDNA.Failure> in
            guard !ascii.isEmpty else { return .failure(IDNA.Failure(description: "the host \"\(String(decoding: utf8, as: UTF8.self))\" is empty once IDNA maps it")) }
            if let b = firstForbiddenDomain(ascii) {
                forbidden = Unicode.Scalar(b)
                return .failure(IDNA.Failure(description: "the host holds the forbidden code point U+\(hexDigitsUpper(UInt32(b)))"))
            }
            guard endsInANumber(ascii) else { return .success(.domain(String(decoding: ascii, as: UTF8.self))) }
            var why = ""
            guard let n = parseIPv4(ascii, &why) else { return .failure(IDNA.Failure(description: why)) }
            return .success(.ipv4(n))
        }
        switch host.flatMap({ $0 }) {
        case .success(let host): return host
        case .failure(let why):
            failure = why.description
            return nil
        }
    }

    /// §3.5 "ends in a number".
    static func endsInANumber<C: RandomAccessCollection>(_ s: C) -> Bool where C.Element == UInt8, C.Index == Int {
        var end = s.endIndex
        if end > s.startIndex && s[end - 1] == 0x2E {
            if end - 1 == s.startIndex { return false }
            end -= 1
        }
        var start = end
        while start > s.startIndex && s[start - 1] != 0x2E { start -= 1 }
        let last = s[start..<end]
        // Every form of number (decimal, 0x hex, 0-led octal) starts with a digit: most names
        // stop here.
        guard let first = last.first, first >= 0x30 && first <= 0x39 else { return false }
        if last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return ipv4Number(last) != nil
    }

    /// An IPv4 number: decimal, 0x hex or 0-led octal.
    static func ipv4Number<C: Collection>(_ s: C) -> UInt64? where C.Element == UInt8 {
        var s = s[...]
        guard !s.isEmpty else { return nil }
        var radix: UInt64 = 10
        if s.count >= 2, s.first == 0x30, let x = s.dropFirst().first, x | 0x20 == 0x78 { s = s.dropFirst(2); radix = 16 }
        else if s.count >= 2, s.first == 0x30 { s = s.dropFirst(); radix = 8 }
        if s.isEmpty { return 0 }
        var n: UInt64 = 0
        for c in s {
            let d: UInt64
            switch c {
            case 0x30...0x39: d = UInt64(c - 0x30)
            case 0x61...0x66: d = UInt64(c - 0x61 + 10)
            case 0x41...0x46: d = UInt64(c - 0x41 + 10)
            default: return nil
            }
            guard d < radix else { return nil }
            n = n * radix + d
            if n > 1 << 40 { n = 1 << 40 }  // past any valid value: failure below, without overflow
        }
        return n
    }

    /// The IPv4 parser (§3.5): up to four numbers separated by dots (one final dot allowed), the
    /// last filling the bytes the others leave.
    static func parseIPv4<C: RandomAccessCollection>(_ s: C, _ failure: inout String) -> UInt32? where C.Element == UInt8, C.Index == Int {
        var end = s.endIndex
        if end > s.startIndex + 1 && s[end - 1] == 0x2E { end -= 1 }
        var numbers: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0, start = s.startIndex
        while true {
            var stop = start
            while stop < end && s[stop] != 0x2E { stop += 1 }
            guard count < 4 else { failure = "an IPv4 address has at most four parts"; return nil }
            guard let n = ipv4Number(s[start..<stop]) else {
                failure = "\"\(String(decoding: s[start..<stop], as: UTF8.self))\" is not an IPv4 number"; return nil
            }
            switch count { case 0: numbers.0 = n; case 1: numbers.1 = n; case 2: numbers.2 = n; default: numbers.3 = n }
            count += 1
            if stop >= end { break }
            start = stop + 1
        }
        func number(_ i: Int) -> UInt64 { switch i { case 0: return numbers.0; case 1: return numbers.1; case 2: return numbers.2; default: return numbers.3 } }
        var value: UInt64 = 0
        for i in 0..<count - 1 {
            guard number(i) <= 255 else { failure = "an IPv4 part is over 255"; return nil }
            value += number(i) << (8 * (3 - i))
        }
        guard number(count - 1) < UInt64(1) << (8 * (5 - count)) else { failure = "the IPv4 address is out of range"; return nil }
        value += number(count - 1)
        return UInt32(value)
    }

    /// The IPv6 parser (§3.5.1) over the bytes between the brackets.
    static func parseIPv6<C: RandomAccessCollection>(_ input: C, _ failure: inout String) -> [UInt16]? where C.Element == UInt8, C.Index == Int {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int? = nil
        var p = input.startIndex
        let end = input.endIndex
        @inline(__always) func c(_ i: Int) -> UInt8? { i < end ? input[i] : nil }
        let colon: UInt8 = 0x3A, dot: UInt8 = 0x2E
        func hex(_ b: UInt8) -> Int? {
            switch b {
            case 0x30...0x39: return Int(b - 0x30)
            case 0x61...0x66: return Int(b - 0x61 + 10)
            case 0x41...0x46: return Int(b - 0x41 + 10)
            default: return nil
            }
        }
        if c(p) == colon {
            guard c(p + 1) == colon else { failure = "an IPv6 address cannot start with a single \":\""; return nil }
            p += 2; pieceIndex += 1; compress = pieceIndex
        }
        while let ch = c(p) {
            guard pieceIndex < 8 else { failure = "an IPv6 address has at most eight pieces"; return nil }
            if ch == colon {
                guard compress == nil else { failure = "an IPv6 address has one \"::\" at most"; return nil }
                p += 1; pieceIndex += 1; compress = pieceIndex
                continue
            }
            var value = 0, length = 0
            while length < 4, let h = c(p), let d = hex(h) {
                value = value * 16 + d; p += 1; length += 1
            }
            if c(p) == dot {
                guard length > 0 else { failure = "an IPv4 part in IPv6 is empty"; return nil }
                p -= length
                guard pieceIndex <= 6 else { failure = "an IPv4 part in IPv6 comes too late"; return nil }
                var numbersSeen = 0
                while c(p) != nil {
                    var ipv4Piece: Int? = nil
                    if numbersSeen > 0 {
                        guard c(p) == dot, numbersSeen < 4 else { failure = "an IPv4 part in IPv6 is malformed"; return nil }
                        p += 1
                    }
                    guard let d0 = c(p), d0 >= 0x30 && d0 <= 0x39 else { failure = "an IPv4 part in IPv6 is malformed"; return nil }
                    while let d = c(p), d >= 0x30 && d <= 0x39 {
                        let n = Int(d - 0x30)
                        if let piece = ipv4Piece {
                            guard piece != 0 else { failure = "an IPv4 part in IPv6 has a leading zero"; return nil }
                            ipv4Piece = piece * 10 + n
                        } else {
                            ipv4Piece = n
                        }
                        guard (ipv4Piece ?? 0) <= 255 else { failure = "an IPv4 part in IPv6 is over 255"; return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { failure = "an IPv4 part in IPv6 needs four numbers"; return nil }
                break
            } else if c(p) == colon {
                p += 1
                guard c(p) != nil else { failure = "an IPv6 address cannot end with a single \":\""; return nil }
            } else if c(p) != nil {
                failure = "unexpected \"\(String(decoding: input[p...].prefix(1), as: UTF8.self))\" in an IPv6 address"
                if let b = c(p), b >= 0x80 { failure = "unexpected non-ASCII text in an IPv6 address" }
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1; swaps -= 1
            }
        } else if pieceIndex != 8 {
            failure = "an IPv6 address has eight pieces (or \"::\")"; return nil
        }
        return address
    }
}

func hexDigitsUpper(_ v: UInt32) -> String {
    let digits = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
