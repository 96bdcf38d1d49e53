/// Python 3.11's `cgi.FieldStorage` on a multipart/form-data body (the `cgi` module's reading,
/// which WSGI programs and frameworks built on it get), ported from `read_multi`,
/// `read_lines_to_outerboundary`, `parse_header` and the email package's header parsing: lines
/// skipped to the first `--boundary` line (any surrounding whitespace), each part's header lines
/// to a blank one (a line that is no header ends them early), the name and filename from
/// `Content-Disposition` by `parse_header`, the data line by line to a line that is the next or
/// last delimiter (after a line that ended in a newline), a value decoded as UTF-8 (bytes that
/// are not become U+FFFD), a file kept as bytes; every part kept, in order, a name given twice
/// too. The Content-Type is read as WSGI hands it over (latin-1).
///
/// Not modelled: a part that is itself urlencoded or multipart (cgi reads the rest of the body
/// into it); the model says so rather than guess.
enum PythonMultipart {
    static func failure(_ kind: String, _ message: String) -> QueryServerError { QueryServerError(server: "Python", kind: kind, message: message) }

    static func parse(contentType: [UInt8], body: [UInt8]) throws -> PekitValue {
        let (ctype, pdict) = parseHeader(CookieServer.latin1ToUTF8(contentType))
        guard ctype.starts(with: Array("multipart/".utf8)) else {
            // read_single → read_binary: the body written to a text file.
            if body.isEmpty { return .array([]) }
            throw failure("TypeError", "write() argument must be str, not bytes")
        }
        let boundary = pdict.last { $0.name == Array("boundary".utf8) }?.value ?? []
        guard isValidBoundary(boundary) else { throw failure("ValueError", "Invalid boundary in multipart form: \(bytesRepr(boundary))") }
        var reader = LineReader(body: body)
        var bytesRead = 0
        let length = body.count
        var line = reader.readline()
        bytesRead += line.count
        while !strip(line).elementsEqual([0x2D, 0x2D] + boundary) && !line.isEmpty {
            line = reader.readline()
            bytesRead += line.count
        }
        var list: [PekitValue] = []
        while true {
            var headerText: [UInt8] = []
            while true {
                let data = reader.readline()
                headerText += data
                if strip(data).isEmpty { break }
            }
            if headerText.isEmpty { break }
            bytesRead += headerText.count
            let headers = emailHeaders(Array(String(decoding: headerText, as: UTF8.self).utf8))
            func header(_ name: String) -> [UInt8]? { headers.first { $0.name.map(ASCII.lower) == Array(name.utf8) }?.value }
            let disposition = header("content-disposition").map { parseHeader($0).params } ?? []
            let name = disposition.last { $0.name == Array("name".utf8) }?.value
            let filename = disposition.last { $0.name == Array("filename".utf8) }?.value
            let type = header("content-type").map { parseHeader($0).key } ?? Array("text/plain".utf8)
            if type == Array("application/x-www-form-urlencoded".utf8) || type.starts(with: Array("multipart/".utf8)) {
                throw failure("", "pekit does not model cgi's reading of a part of type \(String(decoding: type, as: UTF8.self)) inside a multipart body")
            }
            let limit = length - bytesRead
            let (data, done, read) = reader.readToBoundary(boundary, limit: limit, binary: filename != nil)
            bytesRead += read
            let nameValue = name.map { PekitValue.string(ByteString($0)) } ?? .null
            if let filename {
                list.append(.array([nameValue, .map(PekitMap(ordered: [
                    .init(key: "filename", value: .string(ByteString(filename))),
                    .init(key: "type", value: .string(ByteString(type))),
                    .init(key: "content", value: .string(ByteString(data))),
                ]))]))
            } else {
                list.append(.array([nameValue, .string(ByteString(data))]))
            }
            if done != 0 || (bytesRead >= length && length > 0) { break }
        }
        return .array(list)
    }

    /// `valid_boundary`: `^[ -~]{0,200}[!-~]$` (`$` may stand before a final LF).
    static func isValidBoundary(_ s: [UInt8]) -> Bool {
        var s = s[...]
        if s.last == 0x0A { s = s.dropLast() }
        guard (1...201).contains(s.count), let last = s.last, (0x21...0x7E).contains(last) else { return false }
        return s.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Python's `repr` of bytes: `b'…'`.
    static func bytesRepr(_ s: [UInt8]) -> String {
        let quote: UInt8 = s.contains(0x27) && !s.contains(0x22) ? 0x22 : 0x27
        var out = "b" + String(UnicodeScalar(quote))
        for b in s {
            switch b {
            case 0x5C: out += "\\\\"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case quote: out += "\\" + String(UnicodeScalar(b))
            case 0x20..<0x7F: out += String(UnicodeScalar(b))
            default: out += "\\x" + ASCII.hex(b, uppercase: false)
            }
        }
        return out + String(UnicodeScalar(quote))
    }

    /// `bytes.strip()`: ASCII whitespace off both ends.
    static func strip(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let space: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        var s = s
        while let f = s.first, space(f) { s = s.dropFirst() }
        while let l = s.last, space(l) { s = s.dropLast() }
        return s
    }

    /// `str.strip()` on UTF-8 text: Python's whitespace (ASCII's, U+001C–U+001F, U+0085, U+00A0
    /// and Unicode's spaces) off both ends.
    static func strStrip(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            let v = scalar.value
            return v == 0x20 || (0x09...0x0D).contains(v) || (0x1C...0x1F).contains(v) || v == 0x85 || v == 0xA0 || v == 0x1680
                || (0x2000...0x200A).contains(v) || v == 0x2028 || v == 0x2029 || v == 0x202F || v == 0x205F || v == 0x3000
        }
        let text = String(decoding: s, as: UTF8.self).unicodeScalars
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(String(text[first...last]).utf8)[...]
    }

    /// `cgi.parse_header`: the first piece (stripped) and each `name=value` after a `;` that is
    /// not inside quotes, names stripped and lower-cased, a quoted value unquoted (`\\` and `\"`).
    static func parseHeader(_ line: [UInt8]) -> (key: [UInt8], params: [(name: [UInt8], value: [UInt8])]) {
        var pieces: [ArraySlice<UInt8>] = []
        var s = ([0x3B] + line)[...]
        while s.first == 0x3B {
            s = s.dropFirst()
            func quotes(_ upTo: Int) -> Int {
                let part = s[s.startIndex..<upTo]
                var n = 0, escaped = 0, i = part.startIndex
                while i < part.endIndex {
                    if part[i] == 0x22 { n += 1 }
                    if part[i] == 0x5C, i + 1 < part.endIndex, part[i + 1] == 0x22 { escaped += 1 }
                    i += 1
                }
                return n - escaped
            }
            var end = s.firstIndex(of: 0x3B)
            while let e = end, e > s.startIndex, quotes(e) % 2 != 0 { end = s[(e + 1)...].firstIndex(of: 0x3B) }
            let stop = end ?? s.endIndex
            pieces.append(strStrip(s[..<stop]))
            s = s[stop...]
        }
        let key = Array(pieces.first ?? [])
        var params: [(name: [UInt8], value: [UInt8])] = []
        for p in pieces.dropFirst() {
            guard let i = p.firstIndex(of: 0x3D) else { continue }
            let name = Array(String(decoding: strStrip(p[..<i]), as: UTF8.self).lowercased().utf8)
            var value = Array(strStrip(p[(i + 1)...]))
            if value.count >= 2, value.first == 0x22, value.last == 0x22 {
                value = Array(value.dropFirst().dropLast())
                value = replacing(replacing(value, [0x5C, 0x5C], [0x5C]), [0x5C, 0x22], [0x22])
            }
            params.append((name, value))
        }
        return (key, params)
    }

    static func replacing(_ s: [UInt8], _ old: [UInt8], _ new: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < s.count {
            if s[i...].starts(with: old) { out += new; i += old.count } else { out.append(s[i]); i += 1 }
        }
        return out
    }

    /// The email package's header parsing (`FeedParser`, compat32): lines split at CRLF, CR or
    /// LF; header lines while each is `From `, `NAME:` (printable ASCII but `:`, maybe empty) or a
    /// continuation; a name-less `:x` dropped; each value after its colon without leading spaces
    /// and tabs, its continuation lines appended, its line ending taken off.
    static func emailHeaders(_ text: [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < text.count {
            if text[i] == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { lines.append(text[start...(i + 1)]); i += 2; start = i }
            else if text[i] == 0x0D || text[i] == 0x0A { lines.append(text[start...i]); i += 1; start = i }
            else { i += 1 }
        }
        if start < text.count { lines.append(text[start...]) }
        var headerLines: [ArraySlice<UInt8>] = []
        for line in lines {
            let isHeader = line.starts(with: Array("From ".utf8)) || line.first == 0x20 || line.first == 0x09
                || (line.firstIndex(of: 0x3A).map { colon in line[..<colon].allSatisfy { (0x21...0x7E).contains($0) } } ?? false)
            guard isHeader else { break }
            headerLines.append(line)
        }
        var headers: [(name: [UInt8], value: [UInt8])] = []
        var last: [ArraySlice<UInt8>] = []
        func flush() {
            guard let first = last.first, let colon = first.firstIndex(of: 0x3A) else { return }
            var value = Array(first[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }) + last.dropFirst().flatMap { $0 }
            while let l = value.last, l == 0x0D || l == 0x0A { value.removeLast() }
            headers.append((Array(first[..<colon]), value))
            last = []
        }
        for (n, line) in headerLines.enumerated() {
            if line.first == 0x20 || line.first == 0x09 {
                if !last.isEmpty { last.append(line) }
                continue
            }
            flush()
            if line.starts(with: Array("From ".utf8)) {
                // The envelope line: first, or misplaced; at the end it is the body's (pushed back).
                if n == headerLines.count - 1 && n > 0 { break }
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else { continue }
            last = [line]
        }
        flush()
        return headers
    }

    /// The body read as `cgi` reads its file object.
    struct LineReader {
        let body: [UInt8]
        var position = 0

        /// `readline(size)`: up to and with the next LF, at most `size` bytes.
        mutating func readline(_ size: Int = .max) -> ArraySlice<UInt8> {
            let end = min(body[position...].firstIndex(of: 0x0A).map { $0 + 1 } ?? body.count, position + min(size, body.count - position))
            defer { position = end }
            return body[position..<end]
        }

        /// `read_lines_to_outerboundary`: the part's data (a value decoded chunk by chunk as
        /// UTF-8 with replacement, a file as bytes), `done` (1: the last delimiter, -1: the end of
        /// the body, 0: the next delimiter or the limit), and the bytes read.
        mutating func readToBoundary(_ boundary: [UInt8], limit: Int, binary: Bool) -> (data: [UInt8], done: Int, read: Int) {
            let next = [0x2D, 0x2D] + boundary, lastBoundary = next + [0x2D, 0x2D]
            var delim: [UInt8] = [], lastLineLFEnd = true, read = 0, done = 0
            var out: [UInt8] = []
            while true {
                if 0 <= limit && limit <= read { break }
                var line = Array(readline(1 << 16))
                read += line.count
                if line.isEmpty { done = -1; break }
                if delim == [0x0D] { line = delim + line; delim = [] }
                if line.starts(with: [0x2D, 0x2D]) && lastLineLFEnd {
                    var stripped = line[...]
                    while let l = stripped.last, l == 0x20 || (0x09...0x0D).contains(l) { stripped = stripped.dropLast() }
                    if stripped.elementsEqual(next) { break }
                    if stripped.elementsEqual(lastBoundary) { done = 1; break }
                }
                let odelim = delim
                if line.count >= 2, line.suffix(2) == [0x0D, 0x0A] { delim = [0x0D, 0x0A]; line.removeLast(2); lastLineLFEnd = true }
                else if line.last == 0x0A { delim = [0x0A]; line.removeLast(); lastLineLFEnd = true }
                else if line.last == 0x0D { delim = [0x0D]; line.removeLast(); lastLineLFEnd = false }
                else { delim = []; lastLineLFEnd = false }
                let chunk = odelim + line
                out += binary ? chunk : Array(String(decoding: chunk, as: UTF8.self).utf8)
            }
            return (out, done, read)
        }
    }
}
