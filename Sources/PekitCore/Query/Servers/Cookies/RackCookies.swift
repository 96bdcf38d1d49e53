/// Rack 2.2's `Utils.parse_cookies_header` (what `Rack::Request#cookies` returns): the header
/// split at each `;` and the spaces after it, empty pieces skipped, each piece split at its
/// first `=`, the value `URI.decode_www_form_component`-decoded (`+` a space) or kept as it
/// is where that raises (a `%` that starts no escape), `nil` without `=`; the first cookie
/// of a name wins. Names are neither trimmed nor decoded.
enum RackCookies {
    static func parse(_ header: [UInt8]) -> PekitValue {
        var entries: [PekitMap.Entry] = []
        var seen = Set<ByteString>()
        var start = 0
        while start <= header.count {
            let end = header[start...].firstIndex(of: 0x3B) ?? header.count
            let piece = header[start..<end]
            // The separator's pattern, /[;] */, takes the spaces after a ';'.
            start = end + 1
            while end < header.count, start < header.count, header[start] == 0x20 { start += 1 }
            if piece.isEmpty { continue }
            let equals = piece.firstIndex(of: 0x3D)
            let name = ByteString(Array(piece[..<(equals ?? piece.endIndex)]))
            guard seen.insert(name).inserted else { continue }
            var value = PekitValue.null
            if let equals {
                let raw = piece[(equals + 1)...]
                value = .string(ByteString(decodeWWWFormComponent(raw) ?? Array(raw)))
            }
            entries.append(.init(key: name, value: value))
        }
        return .map(PekitMap(ordered: entries))
    }

    /// `URI.decode_www_form_component`: nil (it raises) where a `%` is not followed by two hex digits.
    static func decodeWWWFormComponent(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            switch s[i] {
            case 0x2B: out.append(0x20); i += 1
            case 0x25:
                guard i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) else { return nil }
                out.append(hi << 4 | lo); i += 3
            default: out.append(s[i]); i += 1
            }
        }
        return out
    }
}
