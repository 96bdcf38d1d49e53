/// The `cookie` package 0.5's `parse` (Express's `cookie-parser`), on the header as node hands it
/// over (each byte a latin-1 character): from each position, the next `=` and the next `;`; a `;`
/// before the `=` moves on past the last `;` before it; the name and the value trimmed (as
/// JavaScript's `trim`: tab to CR, space, and latin-1's no-break space), a value starting with
/// `"` losing its first and last characters, then `decodeURIComponent`d where it has a `%` (kept
/// as it is where that throws). The first cookie of a name wins, and a name an object already
/// has (`constructor`, `toString`, `__proto__`…, from `Object.prototype`) is never set. The
/// result is a JavaScript object: names that are array indices (`1`) come first, ascending.
enum ExpressCookies {
    static func parse(_ header: [UInt8]) -> PekitValue {
        var object = JSKeyOrder<PekitValue>()
        var index = 0
        while index < header.count {
            guard let equals = header[index...].firstIndex(of: 0x3D) else { break }
            let end = header[index...].firstIndex(of: 0x3B) ?? header.count
            if end < equals {
                // Back to just after the last ';' before the '='.
                index = (header[..<equals].lastIndex(of: 0x3B) ?? -1) + 1
                continue
            }
            let name = ByteString(CookieServer.latin1ToUTF8(trimmed(header[index..<equals])))
            if object[name] == nil && !QSParser.prototypeNames.contains(name) {
                var value = trimmed(header[(equals + 1)..<end])
                if value.first == 0x22 { value = value.count < 2 ? [] : value.dropFirst().dropLast() }
                let text = CookieServer.latin1ToUTF8(value)
                let decoded = text.contains(0x25) ? (try? JSURIDecoding.decodeURIComponent(text)) ?? text : text
                object[name] = .string(ByteString(decoded))
            }
            index = end + 1
        }
        return .map(PekitMap(ordered: object.keys.map { .init(key: $0, value: object[$0] ?? .null) }))
    }

    /// JavaScript's `trim` on latin-1 text: tab, LF, VT, FF, CR, space and U+00A0 at either end.
    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let space: (UInt8) -> Bool = { ($0 >= 0x09 && $0 <= 0x0D) || $0 == 0x20 || $0 == 0xA0 }
        var s = s
        while let first = s.first, space(first) { s = s.dropFirst() }
        while let last = s.last, space(last) { s = s.dropLast() }
        return s
    }
}
