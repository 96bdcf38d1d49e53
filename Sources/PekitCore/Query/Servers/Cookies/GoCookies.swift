/// Go 1.19's `net/http` `readCookies` (what `Request.Cookies` returns): the header trimmed and cut
/// at each `;`, each piece trimmed (space, tab, CR, LF) and skipped when empty, cut at its first
/// `=`; a name that is not an RFC 7230 token, or a value (its surrounding double quotes removed)
/// with a byte outside 0x20–0x7E or a `"`, `;` or `\`, drops the pair. Every pair is kept, in
/// order: a name may come twice.
enum GoCookies {
    static func parse(_ header: [UInt8]) -> PekitValue {
        var pairs: [PekitValue] = []
        for piece in trimmed(header[...]).split(separator: 0x3B, omittingEmptySubsequences: false) {
            let part = trimmed(piece)
            if part.isEmpty { continue }
            let equals = part.firstIndex(of: 0x3D)
            let name = part[..<(equals ?? part.endIndex)]
            // A byte past ASCII is a rune Go's token check refuses (or U+FFFD where it is not UTF-8).
            guard !name.isEmpty, name.allSatisfy(PekitHeaders.isTokenByte) else { continue }
            var value = equals.map { part[($0 + 1)...] } ?? []
            if value.count > 1, value.first == 0x22, value.last == 0x22 { value = value.dropFirst().dropLast() }
            guard value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x3B && $0 != 0x5C }) else { continue }
            pairs.append(.array([.string(ByteString(Array(name))), .string(ByteString(Array(value)))]))
        }
        return .array(pairs)
    }

    /// `textproto.TrimString`: without leading and trailing space, tab, CR and LF.
    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> { GoMultipart.Reader.trim(s) }
}
