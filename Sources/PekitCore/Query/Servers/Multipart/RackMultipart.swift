/// Rack 2.2's `Multipart.parse_multipart` (what `Rack::Request#POST` reads from a multipart
/// body; Rails, Sinatra), ported from `Rack::Multipart::Parser` with the whole body read at once:
/// the boundary from the Content-Type (`boundary=` unquoted up to `"`, `;` or `,`), lines skipped
/// to the first delimiter, each part's head up to its first blank CRLF line (a part whose head or
/// closing delimiter never comes raises `EOFError`: CRLF only), the name from `Content-Disposition`
/// (the last `; name=`) or `Content-ID`, else the filename, else `TYPE[]`; the filename (`filename=`
/// or `filename*=`, `%XX`-decoded where every `%` starts an escape, backslashes unescaped, its last
/// path element), a part with an empty filename dropped; then each part set as a query parameter
/// of that name is (`normalize_params`), a file as `{filename, type, name, head, content}`.
enum RackMultipart {
    static func error(_ kind: String, _ message: String) -> QueryServerError { QueryServerError(server: "Rack", kind: kind, message: message) }
    static let eof = error("EOFError", "EOFError")

    struct Part {
        var head: [UInt8]
        var name: [UInt8]
        var filename: [UInt8]?
        var contentType: [UInt8]?
        var body: [UInt8] = []
    }

    /// `parse_boundary`: `%r|\Amultipart/.*?boundary(\s*)=\"?([^\";,]+)\"?|ni`.
    static func boundary(_ contentType: [UInt8]) throws -> [UInt8]? {
        let lower = contentType.map(ASCII.lower)
        guard lower.starts(with: Array("multipart/".utf8)) else { return nil }
        let word = Array("boundary".utf8)
        var i = 10
        while i + word.count <= lower.count {
            // `.*?` does not cross a newline.
            if lower[i] == 0x0A { return nil }
            if lower[i...].starts(with: word) {
                var j = i + word.count
                while j < lower.count, isSpace(lower[j]) { j += 1 }
                if j < lower.count, lower[j] == 0x3D {
                    var k = j + 1
                    if k < lower.count, lower[k] == 0x22 { k += 1 }
                    let end = contentType[k...].firstIndex { $0 == 0x22 || $0 == 0x3B || $0 == 0x2C } ?? contentType.count
                    if end > k {
                        guard j == i + word.count else { throw error("EOFError", "whitespace between boundary parameter name and equal sign") }
                        var after = end
                        if after < contentType.count, contentType[after] == 0x22 { after += 1 }
                        if hasBoundaryParameter(lower[after...]) { throw error("EOFError", "multiple boundary parameters found in multipart content type") }
                        return Array(contentType[k..<end])
                    }
                    // `"?` gives back the quote, and `[^";,]+` cannot start on it: try further on.
                }
            }
            i += 1
        }
        return nil
    }

    /// `/boundary\s*=/i` anywhere in `s`.
    static func hasBoundaryParameter(_ s: ArraySlice<UInt8>) -> Bool {
        let word = Array("boundary".utf8)
        var i = s.startIndex
        while i + word.count <= s.endIndex {
            if s[i...].starts(with: word) {
                var j = i + word.count
                while j < s.endIndex, isSpace(s[j]) { j += 1 }
                if j < s.endIndex, s[j] == 0x3D { return true }
            }
            i += 1
        }
        return false
    }

    /// Ruby's `\s`: space, tab, LF, VT, FF, CR.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    /// Ruby's `String#strip`: leading whitespace, trailing whitespace and NUL.
    static func strip(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, isSpace(f) { s = s.dropFirst() }
        while let l = s.last, isSpace(l) || l == 0 { s = s.dropLast() }
        return s
    }

    static func parse(contentType: [UInt8], body: [UInt8]) throws -> PekitValue {
        guard !body.isEmpty, let boundary = try boundary(contentType) else { return .null }
        let full = [0x2D, 0x2D] + boundary, end = full + [0x2D, 0x2D]
        var pos = 0
        enum Token { case boundary, end }
        /// `consume_boundary`: lines (to and with a LF, or to the end) until one that strips to a delimiter.
        func consumeBoundary() -> Token? {
            while true {
                let lineEnd = body[pos...].firstIndex(of: 0x0A).map { $0 + 1 } ?? body.count
                let line = strip(body[pos..<lineEnd])
                pos = lineEnd
                if line.elementsEqual(full) { return .boundary }
                if line.elementsEqual(end) { return .end }
                if pos >= body.count { return nil }
            }
        }
        var parts: [Part] = []
        // FAST_FORWARD
        let first = consumeBoundary()
        if first == .end && pos == boundary.count + 6 && pos == body.count { return .map(PekitMap(ordered: [])) }
        guard first != nil else {
            if body.count > 16 * 1024 { throw error("EOFError", "multipart boundary not found within limit") }
            throw eof
        }
        while true {
            // MIME_HEAD: up to the first CRLF CRLF.
            guard let blank = GoMultipart.Reader.firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: body[pos...]) else {
                if body.count - pos > 64 * 1024 { throw error("EOFError", "multipart mime part header too large") }
                throw eof
            }
            let head = Array(body[pos..<(blank + 2)])
            pos = blank + 4
            let contentType = headerValue(head, "content-type: ")
            var name = dispositionName(head).map(dequote) ?? contentID(head)
            let filename = self.filename(head)
            if name?.isEmpty ?? true { name = filename ?? (contentType ?? Array("text/plain".utf8)) + Array("[]".utf8) }
            var part = Part(head: head, name: name ?? [], filename: filename, contentType: contentType)
            // MIME_BODY: up to the first `(\r\n)?--boundary(\r\n|--)`; then past the body and two bytes.
            guard let (start, _) = bodyEnd(body, from: pos, boundary: full) else { throw eof }
            part.body = Array(body[pos..<start])
            parts.append(part)
            pos = min(body.count, start + 2)
            // CONSUME_TOKEN
            let token = consumeBoundary()
            if token == .end || (pos >= body.count && token != .boundary) { break }
        }
        let parser = RackParser()
        let params = RackParams(limit: parser.keySpaceLimit)
        for part in parts {
            let value: RackValue
            if let filename = part.filename {
                if filename.isEmpty { continue }
                let base = filename.split(whereSeparator: { $0 == 0x2F || $0 == 0x5C }).last.map { PekitValue.string(ByteString(Array($0))) } ?? .null
                value = .file(.map(PekitMap(ordered: [
                    .init(key: "filename", value: base),
                    .init(key: "type", value: part.contentType.map { .string(ByteString($0)) } ?? .null),
                    .init(key: "name", value: .string(ByteString(part.name))),
                    .init(key: "head", value: .string(ByteString(part.head))),
                    .init(key: "content", value: .string(ByteString(part.body))),
                ])))
            } else {
                value = .string(ByteString(part.body))
            }
            _ = try parser.normalize(params, name: part.name[...], value: value, depth: parser.paramDepthLimit)
        }
        return params.value
    }

    /// Where `/(?:\r\n)?--boundary(?:\r\n|--)/` first matches from `from`: its start and end.
    static func bodyEnd(_ body: [UInt8], from: Int, boundary: [UInt8]) -> (Int, Int)? {
        var i = from
        while i < body.count {
            var j = i
            if body[j...].starts(with: [0x0D, 0x0A]) { j += 2 }
            for candidate in Set([j, i]).sorted(by: >) where body[candidate...].starts(with: boundary) {
                let k = candidate + boundary.count
                if body[k...].starts(with: [0x0D, 0x0A]) || body[k...].starts(with: [0x2D, 0x2D]) { return (i, k + 2) }
            }
            i += 1
        }
        return nil
    }

    /// `head[/NAME(.*)\r\n/ni, 1]`: after the first `name` (any case), the rest of its line.
    static func headerValue(_ head: [UInt8], _ name: String) -> [UInt8]? {
        let word = Array(name.utf8)
        var i = 0
        while i + word.count <= head.count {
            if head[i..<(i + word.count)].map(ASCII.lower).elementsEqual(word) {
                let start = i + word.count
                var j = start
                while j < head.count, head[j] != 0x0A { j += 1 }
                // `(.*)\r\n`: the line must end in CRLF; the capture stops before it.
                if j < head.count, j > start, head[j - 1] == 0x0D { return Array(head[start..<(j - 1)]) }
                if j < head.count, j == start { return nil }
            }
            i += 1
        }
        return nil
    }

    /// `Content-ID:\s*([^\r\n]*)`.
    static func contentID(_ head: [UInt8]) -> [UInt8]? {
        let word = Array("content-id:".utf8)
        var i = 0
        while i + word.count <= head.count {
            if head[i..<(i + word.count)].map(ASCII.lower).elementsEqual(word) {
                var j = i + word.count
                while j < head.count, isSpace(head[j]) { j += 1 }
                let start = j
                while j < head.count, head[j] != 0x0D, head[j] != 0x0A { j += 1 }
                return Array(head[start..<j])
            }
            i += 1
        }
        return nil
    }

    /// TOKEN: `[^\s()<>,;:\\"\/\[\]?=]+`.
    static func isTokenByte(_ b: UInt8) -> Bool { !isSpace(b) && !Array(#"()<>,;:\"/[]?="#.utf8).contains(b) }

    /// VALUE at `i`: `"(?:\\"|[^"])*"` or a TOKEN; where it ends.
    static func value(_ s: [UInt8], at i: Int) -> Int? {
        guard i < s.count else { return nil }
        if s[i] == 0x22 {
            var j = i + 1, lastEscapedQuote: Int?
            while j < s.count {
                if s[j] == 0x5C, j + 1 < s.count, s[j + 1] == 0x22 { lastEscapedQuote = j + 1; j += 2; continue }
                if s[j] == 0x22 { return j + 1 }
                j += 1
            }
            // No closing quote: the star gives back its last `\"`, whose quote closes the value.
            if let q = lastEscapedQuote { return q + 1 }
        }
        var j = i
        while j < s.count, isTokenByte(s[j]) { j += 1 }
        return j > i ? j : nil
    }

    /// `Content-Disposition:[^:]*;\s*name=(VALUE)`: the last `; name=` before the next `:`.
    static func dispositionName(_ head: [UInt8]) -> [UInt8]? {
        let word = Array("content-disposition:".utf8)
        var i = 0
        while i + word.count <= head.count {
            defer { i += 1 }
            guard head[i..<(i + word.count)].map(ASCII.lower).elementsEqual(word) else { continue }
            let start = i + word.count
            if let value = lastParameter("name=", in: head, from: start, to: head[start...].firstIndex(of: 0x3A) ?? head.count) { return value }
        }
        return nil
    }

    /// The VALUE of the last `;\s*NAME` (`NAME` ending in `=`, any case) that starts between
    /// `from` and `to` and has one: what a greedy `[^:]*;\s*NAME(VALUE)` or `.*;\s*NAME(VALUE)`
    /// captures.
    static func lastParameter(_ name: String, in head: [UInt8], from: Int, to: Int) -> [UInt8]? {
        let word = Array(name.utf8)
        var semicolon = to - 1
        while semicolon >= from {
            if head[semicolon] == 0x3B {
                var j = semicolon + 1
                while j < head.count, isSpace(head[j]) { j += 1 }
                if head[j...].map(ASCII.lower).starts(with: word), let end = value(head, at: j + word.count) {
                    return Array(head[(j + word.count)..<end])
                }
            }
            semicolon -= 1
        }
        return nil
    }

    /// `Rack::Auth::Digest::Params.dequote`: `/\A"(.*)"\Z/`'s inside, then `\x` as `x`.
    static func dequote(_ s: [UInt8]) -> [UInt8] {
        var inner = s[...]
        var t = s[...]
        if t.last == 0x0A { t = t.dropLast() }
        if t.count >= 2, t.first == 0x22, t.last == 0x22, !t.dropFirst().dropLast().contains(0x0A) { inner = t.dropFirst().dropLast() }
        var out: [UInt8] = [], i = inner.startIndex
        while i < inner.endIndex {
            if inner[i] == 0x5C, i + 1 < inner.endIndex, inner[i + 1] != 0x0A { out.append(inner[i + 1]); i += 2 } else { out.append(inner[i]); i += 1 }
        }
        return out
    }

    /// `get_filename`: `filename=` (its quotes off) or `filename*=`'s value after its second `'`,
    /// from a Content-Disposition line of well-formed parameters (RFC2183), or from any
    /// Content-Disposition line's `; filename=` (BROKEN); then decoded.
    static func filename(_ head: [UInt8]) -> [UInt8]? {
        var found: [UInt8]?
        if let params = rfc2183Parameters(head) {
            if let plain = params.last(where: { $0.name == Array("filename".utf8) })?.value {
                found = unquoted(plain)
            } else if let extended = params.last(where: { $0.name == Array("filename*".utf8) })?.value {
                let pieces = extended.split(separator: 0x27, maxSplits: 2, omittingEmptySubsequences: false)
                found = pieces.count == 3 ? Array(pieces[2]) : []
            }
        } else if let broken = brokenFilename(head) {
            found = unquoted(broken)
        }
        guard var filename = found else { return nil }
        // `filename.scan(/%.?.?/).all? { %XX }` (`.` does not match a LF).
        var allEscapes = true, i = 0
        while let p = filename[i...].firstIndex(of: 0x25) {
            var chunk = [UInt8](), j = p + 1
            while chunk.count < 2, j < filename.count, filename[j] != 0x0A { chunk.append(filename[j]); j += 1 }
            if chunk.count < 2 || hexValue(chunk[0]) == nil || hexValue(chunk[1]) == nil { allEscapes = false }
            i = j
        }
        if allEscapes { filename = GoMediaType.percentHexUnescape(filename) ?? filename }
        // Backslashes unescaped unless one escapes a byte other than `\` or `"` (a Windows path).
        let windows = zip(filename, filename.dropFirst()).contains { $0 == 0x5C && $1 != 0x5C && $1 != 0x22 }
        if !windows { filename = dequoteBackslashes(filename) }
        return filename
    }

    static func dequoteBackslashes(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < s.count {
            if s[i] == 0x5C, i + 1 < s.count, s[i + 1] != 0x0A { out.append(s[i + 1]); i += 2 } else { out.append(s[i]); i += 1 }
        }
        return out
    }

    /// `$1 if filename =~ /^"(.*)"$/`: the inside of a value that is one quoted line.
    static func unquoted(_ s: [UInt8]) -> [UInt8] {
        s.count >= 2 && s.first == 0x22 && s.last == 0x22 && !s.contains(0x0A) ? Array(s.dropFirst().dropLast()) : s
    }

    /// ATTRIBUTE_CHAR: `[^ \x00-\x1f\x7f)(><@,;:\\"/\[\]?='*%]`.
    static func isAttributeChar(_ b: UInt8) -> Bool { b > 0x20 && b != 0x7F && !Array(#")(><@,;:\"/[]?='*%"#.utf8).contains(b) }

    /// One DISPPARM at `i` (`;\s*(?:REGULAR_PARAMETER|EXTENDED_PARAMETER)\s*`): its name, value and end.
    static func dispositionParameter(_ s: [UInt8], at i: Int) -> (name: [UInt8], value: [UInt8], valueEnd: Int, end: Int)? {
        guard i < s.count, s[i] == 0x3B else { return nil }
        var j = i + 1
        while j < s.count, isSpace(s[j]) { j += 1 }
        let nameStart = j
        while j < s.count, isAttributeChar(s[j]) { j += 1 }
        guard j > nameStart else { return nil }
        let attributeEnd = j
        func finish(_ name: Range<Int>, _ valueEnd: Int, _ valueStart: Int) -> (name: [UInt8], value: [UInt8], valueEnd: Int, end: Int) {
            var k = valueEnd
            while k < s.count, isSpace(s[k]) { k += 1 }
            return (Array(s[name]), Array(s[valueStart..<valueEnd]), valueEnd, k)
        }
        // REGULAR_PARAMETER: ATTRIBUTE(\*[0-9]+)?=VALUE.
        var regularEnd = attributeEnd
        if regularEnd < s.count, s[regularEnd] == 0x2A, regularEnd + 1 < s.count, (0x30...0x39).contains(s[regularEnd + 1]) {
            regularEnd += 1
            while regularEnd < s.count, (0x30...0x39).contains(s[regularEnd]) { regularEnd += 1 }
        }
        for candidate in Set([regularEnd, attributeEnd]).sorted(by: >) where candidate < s.count && s[candidate] == 0x3D {
            if let end = value(s, at: candidate + 1) { return finish(nameStart..<candidate, end, candidate + 1) }
        }
        // EXTENDED_INITIAL: ATTRIBUTE(\*0)?\*=[a-zA-Z0-9-]*'[a-zA-Z0-9-]*'EXTENDED_OTHER_VALUE*.
        func extendedValue(_ start: Int, initial: Bool) -> Int {
            var k = start
            if initial {
                for _ in 0..<2 {
                    while k < s.count, ASCII.lower(s[k]) >= 0x61 && ASCII.lower(s[k]) <= 0x7A || (0x30...0x39).contains(s[k]) || s[k] == 0x2D { k += 1 }
                    guard k < s.count, s[k] == 0x27 else { return -1 }
                    k += 1
                }
            }
            while k < s.count {
                if s[k] == 0x25, k + 2 < s.count, hexValue(s[k + 1]) != nil, hexValue(s[k + 2]) != nil { k += 3 } else if isAttributeChar(s[k]) { k += 1 } else { break }
            }
            return k
        }
        var k = attributeEnd
        if s[k...].starts(with: Array("*0*=".utf8)) { k += 3 } else if s[k...].starts(with: Array("*=".utf8)) { k += 1 } else { k = -1 }
        if k >= 0 {
            let end = extendedValue(k + 1, initial: true)
            if end >= 0 { return finish(nameStart..<k, end, k + 1) }
        }
        // EXTENDED_OTHER: ATTRIBUTE\*[1-9][0-9]*\*=EXTENDED_OTHER_VALUE*.
        k = attributeEnd
        if k + 1 < s.count, s[k] == 0x2A, (0x31...0x39).contains(s[k + 1]) {
            k += 2
            while k < s.count, (0x30...0x39).contains(s[k]) { k += 1 }
            if s[k...].starts(with: Array("*=".utf8)) {
                let end = extendedValue(k + 2, initial: false)
                return finish(nameStart..<(k + 1), end, k + 2)
            }
        }
        return nil
    }

    /// The head's DISPPARMs (all of them, `head.scan`) where a line is `Content-Disposition:\s*TOKEN\s*(DISPPARM)+$` (RFC2183).
    static func rfc2183Parameters(_ head: [UInt8]) -> [(name: [UInt8], value: [UInt8])]? {
        var matched = false
        var lineStart = 0
        while lineStart < head.count, !matched {
            defer { lineStart = (head[lineStart...].firstIndex(of: 0x0A) ?? head.count) + 1 }
            guard let afterToken = condisp(head, at: lineStart) else { continue }
            // `(DISPPARM)+$`: after some parameter, its trailing whitespace reaches a LF or the end.
            var i = afterToken
            while let p = dispositionParameter(head, at: i) {
                if p.end == head.count || head[p.valueEnd..<p.end].contains(0x0A) { matched = true; break }
                i = p.end
            }
        }
        guard matched else { return nil }
        var params: [(name: [UInt8], value: [UInt8])] = []
        var i = 0
        while i < head.count {
            if let p = dispositionParameter(head, at: i) { params.append((p.name, p.value)); i = p.end } else { i += 1 }
        }
        return params
    }

    /// `^Content-Disposition:\s*TOKEN\s*` at a line start: where it ends.
    static func condisp(_ head: [UInt8], at start: Int) -> Int? {
        let word = Array("content-disposition:".utf8)
        guard start + word.count <= head.count, head[start..<(start + word.count)].map(ASCII.lower).elementsEqual(word) else { return nil }
        var i = start + word.count
        while i < head.count, isSpace(head[i]) { i += 1 }
        let tokenStart = i
        while i < head.count, isTokenByte(head[i]) { i += 1 }
        guard i > tokenStart else { return nil }
        while i < head.count, isSpace(head[i]) { i += 1 }
        return i
    }

    /// BROKEN: `^CONDISP.*;\s*filename=(VALUE)`: on a Content-Disposition line, the last
    /// `; filename=` with a value (`.*` greedy, within the line).
    static func brokenFilename(_ head: [UInt8]) -> [UInt8]? {
        var lineStart = 0
        while lineStart < head.count {
            defer { lineStart = (head[lineStart...].firstIndex(of: 0x0A) ?? head.count) + 1 }
            guard let after = condisp(head, at: lineStart) else { continue }
            if let value = lastParameter("filename=", in: head, from: after, to: head[after...].firstIndex(of: 0x0A) ?? head.count) { return value }
        }
        return nil
    }
}
