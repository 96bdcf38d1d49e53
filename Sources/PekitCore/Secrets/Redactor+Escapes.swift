/// A secret found through the escapes pekit's writers use, byte by byte: each byte of the secret
/// may stand as itself or as any escape one of them writes for it, so a secret is found whatever
/// subset of its bytes a writer escaped (a policy that keeps `~` and one that writes `%7E`, a URL
/// that writes a space as `%20` and a form that writes `+`).
extension Redactor {
    /// The longest escape of one byte (`\&quot;`, `\u0022`).
    static let longestEscape = 7

    /// Bytes an escape starts with: `%`, `+`, `\`, `&`, `'`.
    @inline(__always)
    static func mayStartEscape(_ c: UInt8) -> Bool { c == 0x25 || c == 0x2B || c == 0x5C || c == 0x26 || c == 0x27 }

    /// Where a match of `secret` starting at `start` ends (the longest), or nil. Every way the
    /// bytes can be read is followed at once (a set of positions), so an ambiguous escape, `%`
    /// as itself or as the start of `%25`, costs no backtracking.
    static func escapedMatch(_ secret: [UInt8], in bytes: [UInt8], at start: Int) -> Int? {
        var positions = [start]
        for b in secret {
            var next: [Int] = []
            for p in positions {
                for end in ends(of: b, in: bytes, at: p) where !next.contains(end) { next.append(end) }
            }
            if next.isEmpty { return nil }
            positions = next
        }
        return positions.max()
    }

    /// XML's named entities, and the byte each stands for.
    static let xmlEntities: [(StaticString, UInt8)] = [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&apos;", 0x27)]

    /// Where each way of writing byte `b` at `p` ends.
    static func ends(of b: UInt8, in bytes: [UInt8], at p: Int) -> [Int] {
        guard p < bytes.count else { return [] }
        var out: [Int] = []
        // The escapes' spellings are static text: compared in place, nothing made per byte.
        func has(_ text: StaticString) -> Bool {
            text.withUTF8Buffer { t in p + t.count <= bytes.count && bytes[p..<(p + t.count)].elementsEqual(t) }
        }
        func hex(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var v = 0
            for k in at..<(at + count) { guard let d = ASCII.hexValue(bytes[k]) else { return nil }; v = v << 4 | Int(d) }
            return v
        }
        let c = bytes[p]
        if c == b { out.append(p + 1) }
        switch c {
        case 0x25:  // %XX (any policy, GitHub's %25 %0A %3A), printf's %%, and an escape's own
            // % escaped again: %%XX (a form body in a printf format), %25XX (a URL in GitHub's
            // annotation)
            if hex(p + 1, 2) == Int(b) { out.append(p + 3) }
            if b == 0x25 && has("%%") { out.append(p + 2) }
            if has("%%"), hex(p + 2, 2) == Int(b) { out.append(p + 4) }
            if has("%25"), hex(p + 3, 2) == Int(b) { out.append(p + 5) }
        case 0x2B:  // a form's + for a space
            if b == 0x20 { out.append(p + 1) }
        case 0x5C:  // printf's \ooo and \\, JSON's \" \\ \/ \n \r \t \b \f \u00XX
            if p + 3 < bytes.count, bytes[(p + 1)...(p + 3)].allSatisfy({ (0x30...0x37).contains($0) }) {
                let v = Int(bytes[p + 1] - 0x30) << 6 | Int(bytes[p + 2] - 0x30) << 3 | Int(bytes[p + 3] - 0x30)
                if v == Int(b) { out.append(p + 4) }
            }
            if p + 1 < bytes.count {
                let e = bytes[p + 1]
                let meant: UInt8? = switch e {
                case 0x5C, 0x22, 0x2F: e
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "t"): 0x09
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                default: nil
                }
                if meant == b { out.append(p + 2) }
                if e == UInt8(ascii: "u"), hex(p + 2, 4) == Int(b) { out.append(p + 6) }
                // JSON's \" and \\ escaped again: inside XML (a JSON value in a JUnit message),
                // inside JSON (a JSON value in a TAP message or a JSON report).
                if b == 0x22 && has("\\&quot;") { out.append(p + 7) }
                if b == 0x22 && has("\\\\\\\"") { out.append(p + 4) }
                if b == 0x5C && has("\\\\\\\\") { out.append(p + 4) }
            }
        case 0x26:  // XML: &amp; &lt; &gt; &quot; &apos; &#NN; &#xHH;
            for (entity, value) in xmlEntities where value == b && has(entity) { out.append(p + entity.utf8CodeUnitCount) }
            if has("&#") {
                var k = p + 2, v = 0, digits = 0
                let isHex = k < bytes.count && (bytes[k] == UInt8(ascii: "x") || bytes[k] == UInt8(ascii: "X"))
                if isHex { k += 1 }
                func digit(_ c: UInt8) -> Int? {
                    if isHex { return ASCII.hexValue(c).map { Int($0) } }
                    return (0x30...0x39).contains(c) ? Int(c - 0x30) : nil
                }
                while k < bytes.count, digits < 8, let d = digit(bytes[k]) {
                    v = v * (isHex ? 16 : 10) + d
                    digits += 1
                    k += 1
                }
                if digits > 0, k < bytes.count, bytes[k] == 0x3B, v == Int(b) { out.append(k + 1) }
            }
        case 0x27:  // the shell's '\'' for a quote inside single quotes
            if b == 0x27 && has("'\\''") { out.append(p + 4) }
        default: break
        }
        return out
    }
}
