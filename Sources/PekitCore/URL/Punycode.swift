/// Punycode (RFC 3492): a label's code points as the ASCII after `xn--`, and back.
enum Punycode {
    private static let base: UInt32 = 36, tMin: UInt32 = 1, tMax: UInt32 = 26, skew: UInt32 = 38, damp: UInt32 = 700
    private static let initialBias: UInt32 = 72, initialN: UInt32 = 128

    private static func adapt(_ delta: UInt32, _ points: UInt32, _ first: Bool) -> UInt32 {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ value: UInt32) -> UInt8 { UInt8(value < 26 ? value + 0x61 : value - 26 + 0x30) }

    /// The most bytes `encode` writes for `count` code points: the basic ones, a delimiter, and
    /// at most 11 digits for each other one (a delta below 2^32, which each digit but the last
    /// divides by 36 − t ≥ 10).
    static func capacity(for count: Int) -> Int { count * 12 + 1 }

    /// Writes the Punycode of `scalars` (without `xn--`) into `out` from `start`, and returns
    /// where it ends: nil on overflow, or when `out` has no room left (`capacity(for:)` bytes
    /// from `start` always suffice). O(n × distinct code points), as RFC 3492's algorithm is.
    static func encode(_ scalars: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int? {
        var at = start
        // The basic code points, and the smallest of the others (the first to insert).
        var m = UInt32.max
        for c in scalars {
            if c < 0x80 {
                guard at < out.count else { return nil }
                out[at] = UInt8(truncatingIfNeeded: c)
                at += 1
            } else if c < m {
                m = c
            }
        }
        let basic = UInt32(at - start)
        var handled = basic
        if basic > 0 {
            guard at < out.count else { return nil }
            out[at] = 0x2D
            at += 1
        }
        var n = initialN, delta: UInt32 = 0, bias = initialBias
        while handled < scalars.count {
            guard m != UInt32.max else { break }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= UInt32.max - step else { return nil }
            delta += step
            n = m
            // One pass inserts every n and finds the next code point to insert (RFC 3492 looks
            // for it in a pass of its own).
            var next = UInt32.max
            for c in scalars {
                if c < n {
                    guard delta < UInt32.max else { return nil }
                    delta += 1
                } else if c == n {
                    var q = delta, k = base
                    while true {
                        let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                        guard at < out.count else { return nil }
                        if q < t { break }
                        out[at] = digit(t + (q - t) % (base - t))
                        at += 1
                        q = (q - t) / (base - t)
                        k += base
                    }
                    out[at] = digit(q)
                    at += 1
                    bias = adapt(delta, handled + 1, handled == basic)
                    delta = 0
                    handled += 1
                } else if c < next {
                    next = c
                }
            }
            delta += 1
            n += 1
            m = next
        }
        return at
    }

    /// The code points `ascii` (without `xn--`) encodes, or nil when it is not valid Punycode.
    static func decode<C: RandomAccessCollection>(_ ascii: C) -> [UInt32]? where C.Element: FixedWidthInteger, C.Index == Int {
        var out: [UInt32] = []
        out.reserveCapacity(ascii.count)
        var rest = ascii[...]
        if let dash = ascii.lastIndex(of: 0x2D) {
            for b in ascii[..<dash] {
                guard b < 0x80 else { return nil }
                out.append(UInt32(b))
            }
            rest = ascii[(dash + 1)...]
            // A delimiter with no basic code points before it and nothing after is no Punycode.
            if out.isEmpty && rest.isEmpty { return nil }
        }
        var n = initialN, i: UInt32 = 0, bias = initialBias
        var index = rest.startIndex
        while index < rest.endIndex {
            let oldI = i
            var w: UInt32 = 1, k = base
            while true {
                guard index < rest.endIndex else { return nil }
                let b = UInt32(truncatingIfNeeded: rest[index])
                index += 1
                let value: UInt32
                switch b {
                case 0x61...0x7A: value = b - 0x61
                case 0x41...0x5A: value = b - 0x41
                case 0x30...0x39: value = b - 0x30 + 26
                default: return nil
                }
                let (product, overflow) = value.multipliedReportingOverflow(by: w)
                guard !overflow, i <= UInt32.max - product else { return nil }
                i += product
                let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                if value < t { break }
                let (nextW, overflowW) = w.multipliedReportingOverflow(by: base - t)
                guard !overflowW else { return nil }
                w = nextW
                k += base
            }
            let count = UInt32(out.count + 1)
            bias = adapt(i - oldI, count, oldI == 0)
            guard i / count <= UInt32.max - n else { return nil }
            n += i / count
            i %= count
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            out.insert(n, at: Int(i))
            i += 1
        }
        return out
    }
}
