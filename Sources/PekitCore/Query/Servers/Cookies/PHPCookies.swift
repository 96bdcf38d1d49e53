extension PHPParser {
    /// PHP 8.2's `$_COOKIE` from a Cookie header (`php_default_treat_data`, `PARSE_COOKIE`):
    /// pieces split on `;` (empty ones skipped), leading whitespace of a name dropped, a piece
    /// with an empty name skipped, names not decoded, values `%XX`-decoded only
    /// (`php_raw_url_decode`: a `+` stays), then registered as `parse_str` registers a name
    /// (mangling, nesting, `max_input_vars`), except that a top-level name already read is
    /// not overwritten (the first cookie of a name wins).
    /// - Parameter header: the Cookie field's value.
    /// - Complexity: O(n).
    public func parseCookies(_ header: [UInt8]) -> PekitValue {
        var bytes = header
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        let result = PHPArray()
        var count = 0
        for piece in bytes.split(separator: 0x3B) {
            let equals = piece.firstIndex(of: 0x3D)
            var start = piece.startIndex
            while start < piece.endIndex, Self.isSpace(piece[start]) { start += 1 }
            if start == piece.endIndex || start == equals { continue }
            count += 1
            if count > maxInputVars { break }
            let value = equals.map { Self.urlDecode(piece[($0 + 1)...], plusAsSpace: false) } ?? []
            register(Array(piece[start..<(equals ?? piece.endIndex)]), value: .string(ByteString(value)), into: result, firstWins: true)
        }
        return result.value
    }
}
