/// The URL Standard's percent-encode sets (§1.3): which code points a component writes as `%XX`
/// of their UTF-8 bytes. Every set holds all code points above U+007E, so a set can work on UTF-8
/// bytes one at a time (a byte of 0x80 or more is always encoded), which is how the parser uses it.
struct PercentEncodeSet: Equatable {
    /// Which ASCII bytes are in the set, as two 64-bit masks (0–63, 64–127).
    let low: UInt64
    let high: UInt64

    init(low: UInt64, high: UInt64) { self.low = low; self.high = high }

    /// The set of the given ASCII bytes plus everything the C0 control set holds.
    init(adding bytes: [UInt8], to base: PercentEncodeSet = .c0Control) {
        var low = base.low, high = base.high
        for b in bytes where b < 128 { if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) } }
        self.init(low: low, high: high)
    }

    /// A set of the ASCII bytes `test` accepts, plus all non-ASCII.
    init(_ test: (UInt32) -> Bool) {
        var low: UInt64 = 0, high: UInt64 = 0
        for b in 0..<128 where test(UInt32(b)) { if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) } }
        self.init(low: low, high: high)
    }

    @inline(__always) func contains(_ b: UInt8) -> Bool {
        // The word is selected, not branched to: letters and digits fall on either side of 64,
        // so a branch there would be mispredicted often in the parser's loops.
        let word = b & 0x40 == 0 ? low : high
        return b >= 0x7F || (word >> UInt64(b & 63)) & 1 != 0
    }

    /// This set with the ASCII byte `b` in it too (for a scan that stops at delimiters as well).
    @inline(__always) func adding(_ b: UInt8) -> PercentEncodeSet {
        b < 64 ? PercentEncodeSet(low: low | 1 << UInt64(b), high: high) : PercentEncodeSet(low: low, high: high | 1 << UInt64(b & 63))
    }

    // The Standard's sets as masks written out, so the parser's loops read constants (a set made
    // at run time is a lazily initialized global, checked at every use). `definitions` says how
    // each is made from the Standard's text, and a test holds the masks to it.
    static let c0Control = PercentEncodeSet(low: 0xFFFF_FFFF, high: 1 << 63)
    static let fragment = PercentEncodeSet(low: 0x5000_0005_FFFF_FFFF, high: 0x8000_0001_0000_0000)
    static let query = PercentEncodeSet(low: 0x5000_000D_FFFF_FFFF, high: 0x8000_0000_0000_0000)
    static let specialQuery = PercentEncodeSet(low: 0x5000_008D_FFFF_FFFF, high: 0x8000_0000_0000_0000)
    static let path = PercentEncodeSet(low: 0xD000_000D_FFFF_FFFF, high: 0xA800_0001_4000_0000)
    static let userinfo = PercentEncodeSet(low: 0xFC00_800D_FFFF_FFFF, high: 0xB800_0001_7800_0001)
    static let component = PercentEncodeSet(low: 0xFC00_987D_FFFF_FFFF, high: 0xB800_0001_7800_0001)
    static let formURLEncoded = PercentEncodeSet(low: 0xFC00_9BFF_FFFF_FFFF, high: 0xF800_0001_7800_0001)

    /// Each set above as the URL Standard (§1.3) defines it: the set it extends and what it adds.
    static var definitions: [(name: String, set: PercentEncodeSet, defined: PercentEncodeSet)] {
        let fragment = PercentEncodeSet(adding: Array(" \"<>`".utf8))
        let query = PercentEncodeSet(adding: Array(" \"#<>".utf8))
        let path = PercentEncodeSet(adding: Array("?^`{}".utf8), to: query)
        let userinfo = PercentEncodeSet(adding: Array("/:;=@[\\]^|".utf8), to: path)
        let component = PercentEncodeSet(adding: Array("$%&+,".utf8), to: userinfo)
        return [("c0Control", c0Control, PercentEncodeSet(adding: [])),
                ("fragment", Self.fragment, fragment), ("query", Self.query, query),
                ("specialQuery", specialQuery, PercentEncodeSet(adding: Array("'".utf8), to: query)),
                ("path", Self.path, path), ("userinfo", Self.userinfo, userinfo), ("component", Self.component, component),
                ("formURLEncoded", formURLEncoded, PercentEncodeSet(adding: Array("!'()~".utf8), to: component))]
    }

    /// The upper-case hex digit of a nibble (0…15), by arithmetic: no table to load.
    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }

    /// Appends `b`, percent-encoded when it is in the set.
    @inline(__always) func append(_ b: UInt8, to out: inout [UInt8]) {
        guard contains(b) else { out.append(b); return }
        out.append(0x25)
        out.append(Self.hexDigit(b >> 4))
        out.append(Self.hexDigit(b & 15))
    }

    func encode<C: Collection>(bytes: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for b in bytes { append(b, to: &out) }
        return out
    }

    func encode<S: Sequence>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(decoding: encode(bytes: String(text).utf8), as: UTF8.self)
    }

    func append(_ c: Unicode.Scalar, to out: inout String) {
        out += encode(CollectionOfOne(c))
    }
}
