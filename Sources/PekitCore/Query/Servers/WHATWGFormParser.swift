/// The WHATWG URL Standard's `application/x-www-form-urlencoded` parser, which `URLSearchParams`
/// and browsers' form handling use: `&` separates, empty pieces are skipped, the name ends at
/// the first `=`, `+` is a space, `%XX` is a byte (a bad `%` stays as it is), and the bytes
/// are read as UTF-8 with U+FFFD for what is not.
public struct WHATWGFormParser: Sendable {
    /// `URLSearchParams`, which has no options.
    public init() {}

    /// Each name, in order of first appearance, to the list of its values.
    public func parse(_ query: ByteString) -> PekitValue {
        var result = FlatValues()
        for (name, value) in pairs(query) { result.append(name, value) }
        return result.value
    }

    /// The name-value list itself, in order, repeats kept (what `URLSearchParams` holds).
    public func pairs(_ query: ByteString) -> [(name: ByteString, value: ByteString)] {
        var result: [(name: ByteString, value: ByteString)] = []
        let bytes = query.bytes
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x26) ?? bytes.count
            defer { start = end + 1 }
            if end == start { continue }
            let piece = bytes[start..<end]
            let equals = piece.firstIndex(of: 0x3D)
            let name = Self.decode(piece[..<(equals ?? piece.endIndex)])
            let value = equals.map { Self.decode(piece[($0 + 1)...]) } ?? []
            result.append((ByteString(name), ByteString(value)))
        }
        return result
    }

    /// The `application/x-www-form-urlencoded` serializer (§5.2): the form set percent-encoded,
    /// a space as `+`, pairs joined with `&`.
    public static func serialize<S: Sequence>(_ pairs: S) -> String where S.Element == (name: String, value: String) {
        pairs.map { serializeComponent($0.name) + "=" + serializeComponent($0.value) }.joined(separator: "&")
    }

    static func serializeComponent(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c == " " { out += "+" } else { PercentEncodeSet.formURLEncoded.append(c, to: &out) }
        }
        return out
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let decoded = (try? PercentDecoder(mode: .lenient, plusAsSpace: true).decode(bytes: bytes)) ?? Array(bytes)
        return UTF8Decoding.repaired(decoded)
    }
}

extension WHATWGFormParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { parse(query) }
}
