/// The URL Standard's percent-encode sets (§1.3): which code points a component writes as
/// `%XX` of their UTF-8 bytes.
struct PercentEncodeSet {
    let contains: (UInt32) -> Bool

    static let c0Control = PercentEncodeSet { $0 < 0x20 || $0 > 0x7E }
    static let fragment = PercentEncodeSet { c0Control.contains($0) || [0x20, 0x22, 0x3C, 0x3E, 0x60].contains($0) }
    static let query = PercentEncodeSet { c0Control.contains($0) || [0x20, 0x22, 0x23, 0x3C, 0x3E].contains($0) }
    static let specialQuery = PercentEncodeSet { query.contains($0) || $0 == 0x27 }
    static let path = PercentEncodeSet { query.contains($0) || [0x3F, 0x5E, 0x60, 0x7B, 0x7D].contains($0) }
    static let userinfo = PercentEncodeSet { path.contains($0) || [0x2F, 0x3A, 0x3B, 0x3D, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C].contains($0) }
    static let component = PercentEncodeSet { userinfo.contains($0) || [0x24, 0x25, 0x26, 0x2B, 0x2C].contains($0) }
    static let formURLEncoded = PercentEncodeSet { component.contains($0) || [0x21, 0x27, 0x28, 0x29, 0x7E].contains($0) }

    func encode<S: Sequence>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
        var out = ""
        for c in scalars { append(c, to: &out) }
        return out
    }

    func append(_ c: Unicode.Scalar, to out: inout String) {
        guard contains(c.value) else { out.unicodeScalars.append(c); return }
        for b in String(c).utf8 { out += "%" + String(b >> 4, radix: 16, uppercase: true) + String(b & 15, radix: 16, uppercase: true) }
    }
}

extension PercentDecoder {
    /// Percent-decodes `text` and reads the bytes as UTF-8 with U+FFFD for what is not (the URL
    /// Standard's "UTF-8 decode without BOM" of the percent-decoded host).
    func decodeLossy(_ text: String) -> [Unicode.Scalar] {
        let bytes = (try? decode(bytes: Array(text.utf8))) ?? Array(text.utf8)
        return Array(String(decoding: UTF8Decoding.repaired(bytes), as: UTF8.self).unicodeScalars)
    }
}
