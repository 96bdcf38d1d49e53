/// Go 1.19's reading of a multipart/form-data body: `Request.ParseMultipartForm` (the
/// Content-Type's boundary by `mime.ParseMediaType`), `mime/multipart`'s `Reader` (preamble
/// lines skipped; the first delimiter line says whether lines end in CRLF or LF; a part's data
/// ends at a newline and `--boundary` followed by a space, tab, newline, `--` or the end, and
/// not otherwise) and `ReadForm` (a part without a form-data `name` skipped; with a
/// `filename`, its base name, a file; otherwise a value). What Go returns: the values and the
/// files by name, names sorted (Go's maps have no order), each file its name, Content-Type,
/// size and content; or the error `ParseMultipartForm` returns, in Go's words.
///
/// Not modelled: quoted-printable parts (Go decodes them), and the memory limits past 32 MB.
enum GoMultipart {
    static func parse(contentType: [UInt8], body: [UInt8]) throws -> PekitValue {
        func failure(_ message: String) -> QueryServerError { QueryServerError(server: "Go", kind: "", message: message) }
        guard let (type, params) = try? GoMediaType.parse(contentType), type == Array("multipart/form-data".utf8) else {
            throw failure("request Content-Type isn't multipart/form-data")
        }
        guard let boundary = params[Array("boundary".utf8)] else { throw failure("no multipart boundary param in Content-Type") }
        guard !boundary.isEmpty else { throw failure("multipart: boundary is empty") }
        var reader = Reader(body: body, boundary: boundary)
        var values: [[UInt8]: [PekitValue]] = [:], files: [[UInt8]: [PekitValue]] = [:]
        var parts = 0
        while let part = try reader.nextPart() {
            parts += 1
            guard parts <= 1000 else { throw failure("multipart: message too large") }
            let disposition = try? GoMediaType.parse(part.header("Content-Disposition") ?? [])
            guard let disposition, disposition.type == Array("form-data".utf8),
                  let name = disposition.params[Array("name".utf8)], !name.isEmpty else {
                continue  // its data is skipped by the next nextPart, errors and all (Close)
            }
            let filename = disposition.params[Array("filename".utf8)].map(base) ?? []
            let content = try reader.data()
            if filename.isEmpty {
                values[name, default: []].append(.string(ByteString(content)))
            } else {
                files[name, default: []].append(.map(PekitMap(ordered: [
                    .init(key: "filename", value: .string(ByteString(filename))),
                    .init(key: "content_type", value: .string(ByteString(part.header("Content-Type") ?? []))),
                    .init(key: "size", value: .integer(Int64(content.count))),
                    .init(key: "content", value: .string(ByteString(content))),
                ])))
            }
        }
        func sorted(_ map: [[UInt8]: [PekitValue]]) -> PekitValue {
            .map(PekitMap(ordered: map.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { .init(key: ByteString($0), value: .array(map[$0] ?? [])) }))
        }
        return .map(PekitMap(ordered: [.init(key: "values", value: sorted(values)), .init(key: "files", value: sorted(files))]))
    }

    /// `filepath.Base` on Unix: the last element, trailing slashes dropped.
    static func base(_ path: [UInt8]) -> [UInt8] {
        guard !path.isEmpty else { return [] }  // FileName returns "" before Base sees it
        var p = path[...]
        while p.last == 0x2F { p = p.dropLast() }
        if let slash = p.lastIndex(of: 0x2F) { p = p[(slash + 1)...] }
        return p.isEmpty ? [0x2F] : Array(p)
    }

    /// A part's header: its fields, names canonical where they are tokens.
    struct Part {
        var fields: [(name: [UInt8], value: [UInt8])] = []
        /// `Header.Get`: the first value of the canonical `name`.
        func header(_ name: String) -> [UInt8]? { fields.first { $0.name == Array(name.utf8) }?.value }
    }

    struct Reader {
        let body: [UInt8]
        var position = 0
        var nl: [UInt8] = [0x0D, 0x0A]
        let dashBoundary: [UInt8]
        var partsRead = 0
        /// Where the current part's data starts (nil: no part, or its data was read).
        var dataStart: Int?

        init(body: [UInt8], boundary: [UInt8]) {
            self.body = body
            dashBoundary = [0x2D, 0x2D] + boundary
        }

        var nlDashBoundary: [UInt8] { nl + dashBoundary }

        func error(_ message: String) -> QueryServerError { QueryServerError(server: "Go", kind: "", message: message) }

        /// The next line, its newline kept, as `bufio.Reader.ReadSlice('\n')` gives it (4,096 bytes at most).
        mutating func readSlice() -> (line: ArraySlice<UInt8>, eof: Bool, full: Bool) {
            let end = body[position...].firstIndex(of: 0x0A).map { $0 + 1 }
            if let end, end - position <= 4096 { defer { position = end }; return (body[position..<end], false, false) }
            if end == nil, body.count - position < 4096 { defer { position = body.count }; return (body[position...], true, false) }
            defer { position += 4096 }
            return (body[position..<(position + 4096)], false, true)
        }

        static func skipLWSP(_ b: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var b = b
            while let first = b.first, first == 0x20 || first == 0x09 { b = b.dropFirst() }
            return b
        }

        func isFinalBoundary(_ line: ArraySlice<UInt8>) -> Bool {
            let dashBoundaryDash = dashBoundary + [0x2D, 0x2D]
            guard line.starts(with: dashBoundaryDash) else { return false }
            let rest = Self.skipLWSP(line.dropFirst(dashBoundaryDash.count))
            return rest.isEmpty || rest.elementsEqual(nl)
        }

        mutating func isBoundaryDelimiterLine(_ line: ArraySlice<UInt8>) -> Bool {
            guard line.starts(with: dashBoundary) else { return false }
            let rest = Self.skipLWSP(line.dropFirst(dashBoundary.count))
            if partsRead == 0, rest.elementsEqual([0x0A]) { nl = [0x0A] }
            return rest.elementsEqual(nl)
        }

        /// `NextPart`: nil at the end.
        mutating func nextPart() throws -> Part? {
            if dataStart != nil { _ = try? data() }
            var expectNewPart = false
            while true {
                let (line, eof, full) = readSlice()
                if eof && isFinalBoundary(line) { return nil }
                if full { throw error("multipart: NextPart: bufio: buffer full") }
                if eof { throw error("multipart: NextPart: EOF") }
                if isBoundaryDelimiterLine(line) {
                    partsRead += 1
                    // A header cut by the end of the body is io.EOF, which ReadForm takes as the end.
                    guard let part = try readHeader() else { return nil }
                    dataStart = position
                    return part
                }
                if isFinalBoundary(line) { return nil }
                if expectNewPart { throw error("multipart: expecting a new Part; got line \(GoQuote.quote(line))") }
                if partsRead == 0 { continue }
                if line.elementsEqual(nl) { expectNewPart = true; continue }
                throw error("multipart: unexpected line in Next(): \(GoQuote.quote(line))")
            }
        }

        /// `bufio.Reader.ReadLine` as textproto reads it: a line without its LF (and a CR before
        /// it), or nil at the end of the body.
        mutating func readLine() -> ArraySlice<UInt8>? {
            guard position < body.count else { return nil }
            let end = body[position...].firstIndex(of: 0x0A) ?? body.count
            var line = body[position..<end]
            position = min(body.count, end + 1)
            if end < body.count, line.last == 0x0D { line = line.dropLast() }
            return line
        }

        /// `textproto.trim`: without leading and trailing space, tab, CR and LF.
        static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
            var s = s
            while let f = s.first, space(f) { s = s.dropFirst() }
            while let l = s.last, space(l) { s = s.dropLast() }
            return s
        }

        /// `textproto.readMIMEHeader`: field lines to an empty one, continuation lines (a
        /// leading space or tab) joined with a space.
        mutating func readHeader() throws -> Part? {
            var part = Part()
            if position < body.count, body[position] == 0x20 || body[position] == 0x09 {
                let line = readLine() ?? []
                throw error("malformed MIME header initial line: " + String(decoding: line, as: UTF8.self))
            }
            while true {
                guard let first = readLine() else { return nil }
                if first.isEmpty { return part }
                guard first.contains(0x3A) else { throw error("malformed MIME header: missing colon: \(GoQuote.quote(first))") }
                var kv = Array(Self.trim(first))
                while position < body.count, body[position] == 0x20 || body[position] == 0x09 {
                    while position < body.count, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
                    guard let more = readLine() else { break }
                    kv += [0x20] + Self.trim(more)
                }
                let colon = kv.firstIndex(of: 0x3A) ?? kv.count
                let key = Self.canonicalKey(kv[..<colon])
                if key.isEmpty { continue }
                var value = kv[min(kv.count, colon + 1)...]
                while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
                part.fields.append((key, Array(value)))
            }
        }

        /// `canonicalMIMEHeaderKey`: a token's first letter and each after a `-` upper case, the
        /// rest lower; a name with a byte that is no token as it is.
        static func canonicalKey(_ a: ArraySlice<UInt8>) -> [UInt8] {
            guard a.allSatisfy(PekitHeaders.isTokenByte) else { return Array(a) }
            var upper = true
            return a.map { c in
                let out = upper && (0x61...0x7A).contains(c) ? c - 0x20 : !upper && (0x41...0x5A).contains(c) ? c + 0x20 : c
                upper = out == 0x2D
                return out
            }
        }

        /// The current part's data (`partReader` and `scanUntilBoundary`), up to the newline
        /// before the next delimiter, which stays to be read.
        mutating func data() throws -> [UInt8] {
            guard let start = dataStart else { return [] }
            dataStart = nil
            position = start
            var total = 0
            var out: [UInt8] = []
            let nlDash = nlDashBoundary
            while true {
                let buf = body[position...]
                var n = 0, ended = false
                /// `matchAfterPrefix` with the whole body read: +1 a delimiter, -1 data.
                func match(_ b: ArraySlice<UInt8>, _ prefix: [UInt8]) -> Int {
                    if b.count == prefix.count { return 1 }
                    let c = b[b.startIndex + prefix.count]
                    if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { return 1 }
                    if c == 0x2D {
                        if b.count == prefix.count + 1 { return -1 }
                        if b[b.startIndex + prefix.count + 1] == 0x2D { return 1 }
                    }
                    return -1
                }
                var unexpectedEOF = false
                if total == 0, buf.starts(with: dashBoundary) {
                    if match(buf, dashBoundary) == 1 { ended = true } else { n = dashBoundary.count }
                } else if total == 0, dashBoundary.starts(with: buf) {
                    unexpectedEOF = true
                } else if let i = Self.firstIndex(of: nlDash, in: buf) {
                    if match(buf[i...], nlDash) == 1 { n = i - buf.startIndex; ended = true } else { n = i - buf.startIndex + nlDash.count }
                } else if nlDash.starts(with: buf) {
                    unexpectedEOF = true
                } else if let i = buf.lastIndex(of: nlDash[0]), nlDash.starts(with: buf[i...]), i > buf.startIndex {
                    n = i - buf.startIndex
                } else {
                    n = buf.count
                    unexpectedEOF = true
                }
                out += body[position..<(position + n)]
                position += n
                total += n
                if unexpectedEOF { throw error("unexpected EOF") }
                if ended { return out }
            }
        }

        static func firstIndex(of needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
            guard needle.count <= hay.count else { return nil }
            var i = hay.startIndex
            while let found = hay[i...].firstIndex(of: needle[0]) {
                if hay[found...].starts(with: needle) { return found }
                i = found + 1
            }
            return nil
        }
    }
}

/// Go's `%q` of bytes (`strconv.Quote`): printable runes as they are, `"` and `\` escaped, the
/// usual escapes for controls, `\xNN` for a byte that is not UTF-8.
enum GoQuote {
    static func quote(_ bytes: ArraySlice<UInt8>) -> String {
        var out = "\""
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b < 0x80 {
                switch b {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x07: out += "\\a"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x0B: out += "\\v"
                case 0x20..<0x7F: out.append(Character(Unicode.Scalar(b)))
                default: out += "\\x" + ASCII.hex(b, uppercase: false)
                }
                i += 1
                continue
            }
            var it = bytes[i...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&it) {
                let length = String(scalar).utf8.count
                if scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format
                    && scalar.properties.generalCategory != .unassigned && !scalar.properties.isWhitespace || scalar == " " {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += scalar.value <= 0xFFFF ? "\\u" + String(scalar.value, radix: 16).leftPadded(4) : "\\U" + String(scalar.value, radix: 16).leftPadded(8)
                }
                i += length
            } else {
                out += "\\x" + ASCII.hex(b, uppercase: false)
                i += 1
            }
        }
        return out + "\""
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
