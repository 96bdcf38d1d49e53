/// Go 1.19's `mime.ParseMediaType`, which `net/http` runs on a request's Content-Type and
/// `mime/multipart` on each part's Content-Disposition: the type lower-cased and checked as
/// `token[/token]`, then `; name=value` parameters (names lower-cased, values a token or a
/// quoted string whose `\` escapes only a tspecial), a parameter given twice an error, and
/// RFC 2231's `name*=charset''%XX` (UTF-8 and US-ASCII only) and `name*0=`, `name*1*=`… pieces.
enum GoMediaType {
    struct Failure: Error { let message: String }

    static func isTSpecial(_ b: UInt8) -> Bool { Array(#"()<>@,;:\"/[]?="#.utf8).contains(b) }
    static func isTokenChar(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F && !isTSpecial(b) }

    /// The length of the `unicode.IsSpace` rune at the start of `s`, or 0.
    static func spaceLength(_ s: ArraySlice<UInt8>) -> Int {
        guard let first = s.first else { return 0 }
        if first == 0x20 || (0x09...0x0D).contains(first) { return 1 }
        guard first >= 0xC2 else { return 0 }
        var it = s.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&it) else { return 0 }
        let v = scalar.value
        return [0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000].contains(v) || (0x2000...0x200A).contains(v) ? String(scalar).utf8.count : 0
    }

    static func trimLeftSpace(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while case let n = spaceLength(s), n > 0 { s = s.dropFirst(n) }
        return s
    }

    /// `strings.TrimSpace`.
    static func trimSpace(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = trimLeftSpace(s)
        while let last = s.last {
            if last == 0x20 || (0x09...0x0D).contains(last) { s = s.dropLast(); continue }
            // A space past ASCII ends in one of these bytes; check the whole rune.
            if let start = (max(s.startIndex, s.endIndex - 3)..<s.endIndex).first(where: { spaceLength(s[$0...]) == s.endIndex - $0 }) {
                s = s[..<start]; continue
            }
            break
        }
        return s
    }

    static func consumeToken(_ v: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let end = v.firstIndex { !isTokenChar($0) } ?? v.endIndex
        return (v[..<end], v[end...])
    }

    static func consumeValue(_ v: ArraySlice<UInt8>) -> (value: [UInt8], rest: ArraySlice<UInt8>) {
        guard let first = v.first else { return ([], v) }
        guard first == 0x22 else { let (token, rest) = consumeToken(v); return (Array(token), rest) }
        var buffer: [UInt8] = []
        var i = v.startIndex + 1
        while i < v.endIndex {
            let r = v[i]
            if r == 0x22 { return (buffer, v[(i + 1)...]) }
            if r == 0x5C, i + 1 < v.endIndex, isTSpecial(v[i + 1]) { buffer.append(v[i + 1]); i += 2; continue }
            if r == 0x0D || r == 0x0A { return ([], v) }
            buffer.append(r)
            i += 1
        }
        return ([], v)
    }

    /// One `; name=value`: the name (empty where there is none), the value and what follows.
    static func consumeMediaParam(_ v: ArraySlice<UInt8>) -> (name: [UInt8], value: [UInt8], rest: ArraySlice<UInt8>) {
        var rest = trimLeftSpace(v)
        guard rest.first == 0x3B else { return ([], [], v) }
        rest = trimLeftSpace(rest.dropFirst())
        let (token, afterName) = consumeToken(rest)
        let name = token.map(ASCII.lower)
        guard !name.isEmpty else { return ([], [], v) }
        rest = trimLeftSpace(afterName)
        guard rest.first == 0x3D else { return ([], [], v) }
        rest = trimLeftSpace(rest.dropFirst())
        let (value, rest2) = consumeValue(rest)
        if value.isEmpty && rest2.startIndex == rest.startIndex { return ([], [], v) }
        return (name, value, rest2)
    }

    static func percentHexUnescape(_ s: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = [], i = 0
        while i < s.count {
            guard s[i] == 0x25 else { out.append(s[i]); i += 1; continue }
            guard i + 2 < s.count, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) else { return nil }
            out.append(hi << 4 | lo)
            i += 3
        }
        return out
    }

    static func decode2231(_ v: [UInt8]) -> [UInt8]? {
        let parts = v.split(separator: 0x27, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty else { return nil }
        let charset = parts[0].map(ASCII.lower)
        guard charset == Array("us-ascii".utf8) || charset == Array("utf-8".utf8) else { return nil }
        return percentHexUnescape(Array(parts[2]))
    }

    /// The media type (lower case) and its parameters.
    /// - Throws: `Failure` with Go's message.
    static func parse(_ v: [UInt8]) throws -> (type: [UInt8], params: [[UInt8]: [UInt8]]) {
        let base = v[..<(v.firstIndex(of: 0x3B) ?? v.endIndex)]
        let mediaType = Array(trimSpace(base.map(ASCII.lower)[...]))
        // checkMediaTypeDisposition
        let (type, rest) = consumeToken(mediaType[...])
        guard !type.isEmpty else { throw Failure(message: "mime: no media type") }
        if !rest.isEmpty {
            guard rest.first == 0x2F else { throw Failure(message: "mime: expected slash after first token") }
            let (subtype, after) = consumeToken(rest.dropFirst())
            guard !subtype.isEmpty else { throw Failure(message: "mime: expected token after slash") }
            guard after.isEmpty else { throw Failure(message: "mime: unexpected content after media subtype") }
        }
        var params: [[UInt8]: [UInt8]] = [:]
        var continuation: [[UInt8]: [[UInt8]: [UInt8]]] = [:]
        var s = v[base.endIndex...]
        while !s.isEmpty {
            s = trimLeftSpace(s)
            if s.isEmpty { break }
            let (key, value, rest) = consumeMediaParam(s)
            if key.isEmpty {
                if trimSpace(rest).elementsEqual([0x3B]) { break }
                throw Failure(message: "mime: invalid media parameter")
            }
            if let star = key.firstIndex(of: 0x2A) {
                let baseName = Array(key[..<star])
                guard continuation[baseName, default: [:]].updateValue(value, forKey: key) == nil else {
                    throw Failure(message: "mime: duplicate parameter name")
                }
            } else {
                guard params.updateValue(value, forKey: key) == nil else { throw Failure(message: "mime: duplicate parameter name") }
            }
            s = rest
        }
        for (key, pieces) in continuation {
            if let single = pieces[key + [0x2A]] {
                if let decoded = decode2231(single) { params[key] = decoded }
                continue
            }
            var buffer: [UInt8] = [], valid = false
            for n in 0... {
                let simple = key + Array("*\(n)".utf8)
                if let piece = pieces[simple] { valid = true; buffer += piece; continue }
                guard let encoded = pieces[simple + [0x2A]] else { break }
                valid = true
                if n == 0 { buffer += decode2231(encoded) ?? [] } else { buffer += percentHexUnescape(encoded) ?? [] }
            }
            if valid { params[key] = buffer }
        }
        return (mediaType, params)
    }
}
