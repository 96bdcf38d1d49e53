/// PHP 8.2's `parse_str` (the same code fills `$_GET`), ported from `php_default_treat_data` and
/// `php_register_variable_ex`: pieces split on `&` (or any character of `arg_separator.input`;
/// empty ones skipped), names and values
/// url-decoded (`+` is a space), a NUL ends a name, leading spaces of a name are dropped, `.`
/// and space in the top-level name become `_`, `[…]` nests (one leading whitespace inside the
/// brackets is skipped, text after `]` is dropped, an unclosed `[` becomes `_`), `[]` appends
/// after the largest integer key, `__Host-`/`__Secure-` names made by mangling are dropped, past
/// `max_input_nesting_level` the whole variable is removed, and past `max_input_vars` the rest
/// of the query is ignored.
public struct PHPParser: Sendable {
    /// Most pieces read (`max_input_vars`, 1000).
    public var maxInputVars = 1000
    /// Deepest bracket nesting (`max_input_nesting_level`, 64); more than
    /// `QueryServer.deepestNesting` counts as that many.
    public var maxInputNestingLevel = 64
    /// The characters that end a piece (the `arg_separator.input` ini setting, "&"): each one
    /// alone, as strtok reads them (";&" splits at either).
    public var separators: ByteString = "&"

    /// PHP 8.2's defaults (`max_input_vars` 1000, `max_input_nesting_level` 64).
    public init() {}

    /// What `parse_str` puts in its result array, as `json_encode` would show it.
    public func parse(_ query: ByteString) -> PekitValue {
        var bytes = query.bytes
        // parse_str hands the query to strtok as a C string.
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        let result = PHPArray()
        var count = 0
        var start = 0
        let separators = self.separators.bytes
        while start < bytes.count {
            let end = separators.count == 1 ? bytes[start...].firstIndex(of: separators[0]) ?? bytes.count
                : bytes[start...].firstIndex(where: separators.contains) ?? bytes.count
            defer { start = end + 1 }
            if end == start { continue }
            count += 1
            if count > maxInputVars { break }
            let piece = bytes[start..<end]
            let equals = piece.firstIndex(of: 0x3D)
            let value = equals.map { Self.urlDecode(piece[($0 + 1)...]) } ?? []
            var name = Self.urlDecode(piece[..<(equals ?? piece.endIndex)])
            if let nul = name.firstIndex(of: 0) { name.removeSubrange(nul...) }
            register(name, value: .string(ByteString(value)), into: result)
        }
        return result.value
    }

    /// `php_url_decode`: `+` to space, `%XX` to a byte, anything else as it is;
    /// `php_raw_url_decode` (`plusAsSpace` false) leaves a `+`.
    static func urlDecode(_ s: ArraySlice<UInt8>, plusAsSpace: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let b = s[i]
            if b == 0x2B && plusAsSpace { out.append(0x20); i += 1 }
            else if b == 0x25, i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) { out.append(hi << 4 | lo); i += 3 }
            else { out.append(b); i += 1 }
        }
        return out
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// Whether mangling made the name start with `__Host-` or `__Secure-` when the name as sent did not.
    private static func isForbidden(_ mangled: ArraySlice<UInt8>, original: ArraySlice<UInt8>) -> Bool {
        for prefix in [Array("__Host-".utf8), Array("__Secure-".utf8)] where mangled.starts(with: prefix) && !original.starts(with: prefix) {
            return true
        }
        return false
    }

    /// Registers `value` under `rawName` as `php_register_variable_ex` does; `firstWins`: a
    /// top-level name already there is kept (PHP's rule for `$_COOKIE`).
    func register(_ rawName: [UInt8], value: PHPArray.Value, into top: PHPArray, firstWins: Bool = false) {
        var start = 0
        while start < rawName.count, rawName[start] == 0x20 { start += 1 }
        let original = rawName[start...]
        var v = Array(original)
        var p = 0
        var ip: Int? = nil
        while p < v.count {
            if v[p] == 0x20 || v[p] == 0x2E { v[p] = 0x5F }
            else if v[p] == 0x5B { ip = p; break }
            p += 1
        }
        let varLength = p
        guard varLength > 0 else { return }
        // The top-level name; nil means "append" (after `[]`).
        var index: ArraySlice<UInt8>? = v[0..<varLength]
        var table = top
        if var ip {
            var nestLevel = 0
            while true {
                nestLevel += 1
                if nestLevel > min(maxInputNestingLevel, QueryServer.deepestNesting) {
                    top.remove(PHPArray.key(v[0..<varLength]))
                    return
                }
                ip += 1
                let indexStart = ip
                if ip < v.count, Self.isSpace(v[ip]) { ip += 1 }
                var newIndex: ArraySlice<UInt8>? = nil
                if ip < v.count, v[ip] == 0x5D {
                    newIndex = nil
                } else {
                    guard let close = v[ip...].firstIndex(of: 0x5D) else {
                        // Not an index: the '[' and what follows become part of a plain name.
                        if nestLevel == 1 {
                            v[indexStart - 1] = 0x5F
                            for k in indexStart..<v.count where v[k] == 0x20 || v[k] == 0x2E || v[k] == 0x5B { v[k] = 0x5F }
                            index = v[0...]
                        }
                        return store(value, at: index, in: table, original: original, keepFirst: firstWins && table === top)
                    }
                    newIndex = v[indexStart..<close]
                    ip = close
                }
                // Descend into (or create) the array named by `index`.
                let child: PHPArray
                if let name = index {
                    if Self.isForbidden(name, original: original) { return }
                    let key = PHPArray.key(name)
                    if case .array(let existing)? = table[key] {
                        child = existing
                    } else {
                        child = PHPArray()
                        table.update(key, .array(child))
                    }
                } else {
                    child = PHPArray()
                    guard table.append(.array(child)) else { return }
                }
                table = child
                index = newIndex
                ip += 1
                guard ip < v.count, v[ip] == 0x5B else { break }
            }
        }
        store(value, at: index, in: table, original: original, keepFirst: firstWins && table === top)
    }

    private func store(_ value: PHPArray.Value, at index: ArraySlice<UInt8>?, in table: PHPArray, original: ArraySlice<UInt8>, keepFirst: Bool) {
        guard let index else { table.append(value); return }
        if Self.isForbidden(index, original: original) { return }
        if keepFirst, table[PHPArray.key(index)] != nil { return }
        table.update(PHPArray.key(index), value)
    }
}

extension PHPParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { parse(query) }

    /// PHP's ini settings that change `parse_str`.
    static let optionRows: [QueryServer.OptionRow<PHPParser>] = [
        .integer("max_input_vars", \.maxInputVars),
        .integer("max_input_nesting_level", \.maxInputNestingLevel, 0...Int64(QueryServer.deepestNesting)),
        .text("arg_separator.input", \.separators),
    ]
}
