/// PHP 8.2's `$_POST` and `$_FILES` from a multipart/form-data body (`rfc1867_post_handler`, with
/// the php.ini defaults Debian ships: `upload_max_filesize` 2M, `post_max_size` 8M,
/// `max_file_uploads` 20): the boundary after the first `boundary` and `=` of the Content-Type
/// (quoted, or up to `,` or `;`); for each part, lines skipped to one that is `--boundary`
/// exactly (a CR before its LF dropped; the closing `--boundary--` is just not one), header lines
/// to an empty one (a line starting with whitespace, or without `:`, continues the last), the
/// name and filename from `Content-Disposition`'s `;`-separated words (quotes and backslash
/// escapes as PHP reads them); the data up to the next LF followed by `--boundary` (its CR
/// dropped; whatever follows the boundary). A part without Content-Disposition is passed over;
/// one that names neither a name nor a filename ends the whole reading ("File Upload Mime
/// headers garbled"). A value is registered in `$_POST` as `parse_str` registers a name; a file
/// in `$_FILES` under `name`, `full_path`, `type`, `tmp_name` (here: the file's content), `error`
/// and `size`, a name `f[x]` giving `$_FILES['f']['name']['x']`. Once a file is skipped (its
/// name's brackets do not pair, or past `max_file_uploads`) every later one is too: PHP never
/// sets the flag back.
enum PHPMultipart {
    static let uploadMaxFilesize = 2 << 20, postMaxSize = 8 << 20, maxFileUploads = 20
    static let errNoFile: Int64 = 4, errPartial: Int64 = 3, errIniSize: Int64 = 1, errFormSize: Int64 = 2

    /// The boundary, or nil where PHP finds none ("Missing boundary", "Invalid boundary").
    static func boundary(_ contentType: [UInt8]) -> [UInt8]? {
        var ct = contentType
        if let nul = ct.firstIndex(of: 0) { ct.removeSubrange(nul...) }
        let word = Array("boundary".utf8)
        guard let at = GoMultipart.Reader.firstIndex(of: word, in: ct[...]) ?? GoMultipart.Reader.firstIndex(of: word, in: ct.map(ASCII.lower)[...]),
              let equals = ct[at...].firstIndex(of: 0x3D) else { return nil }
        var start = equals + 1
        if start < ct.count, ct[start] == 0x22 {
            start += 1
            guard let close = ct[start...].firstIndex(of: 0x22) else { return nil }
            return Array(ct[start..<close])
        }
        let end = ct[start...].firstIndex { $0 == 0x2C || $0 == 0x3B } ?? ct.count
        return Array(ct[start..<end])
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    /// `php_ap_getword`: up to `stop` outside quotes (`"` or `'`, `\` escaping the quote); the
    /// word and the rest after every `stop` that follows it.
    static func getword(_ line: ArraySlice<UInt8>, _ stop: UInt8) -> (word: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        var pos = line.startIndex
        while pos < line.endIndex, line[pos] != stop {
            let quote = line[pos]
            if quote == 0x22 || quote == 0x27 {
                pos += 1
                while pos < line.endIndex, line[pos] != quote {
                    if line[pos] == 0x5C, pos + 1 < line.endIndex, line[pos + 1] == quote { pos += 2 } else { pos += 1 }
                }
                if pos < line.endIndex { pos += 1 }
            } else {
                pos += 1
            }
        }
        if pos >= line.endIndex { return (line, line[line.endIndex...]) }
        let word = line[line.startIndex..<pos]
        while pos < line.endIndex, line[pos] == stop { pos += 1 }
        return (word, line[pos...])
    }

    /// `php_ap_getword_conf`: leading whitespace skipped; a quoted word to its closing quote, an
    /// unquoted one to whitespace; `\\` and `\QUOTE` unescaped.
    static func getwordConf(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var s = s
        while let f = s.first, isSpace(f) { s = s.dropFirst() }
        guard let first = s.first else { return [] }
        var quote: UInt8 = 0
        var text: ArraySlice<UInt8>
        if first == 0x22 || first == 0x27 {
            quote = first
            text = s.dropFirst()
        } else {
            text = s.prefix { !isSpace($0) }
        }
        var out: [UInt8] = [], i = text.startIndex
        while i < text.endIndex, text[i] != quote || quote == 0 {
            if text[i] == 0x5C, i + 1 < text.endIndex, text[i + 1] == 0x5C || (quote != 0 && text[i + 1] == quote) {
                out.append(text[i + 1]); i += 2
            } else {
                out.append(text[i]); i += 1
            }
        }
        return out
    }

    static func parse(contentType: [UInt8], body: [UInt8]) -> PekitValue {
        let post = PHPArray(), files = PHPArray()
        func result() -> PekitValue {
            .map(PekitMap(ordered: [.init(key: "post", value: post.value), .init(key: "files", value: files.value)]))
        }
        guard body.count <= postMaxSize, let boundary = boundary(contentType) else { return result() }
        var reader = Reader(body: body, boundary: [0x2D, 0x2D] + boundary)
        let parser = PHPParser()
        var count = 0, uploads = maxFileUploads, anonymous = 0
        var maxFileSize: Int64 = 0
        // Never set back once set: after one file is skipped, every later one is too.
        var skip = false
        while reader.position < body.count {
            guard let headers = reader.headers() else { break }
            // A part without Content-Disposition is passed over.
            guard var cd = headers.first(where: { $0.key.map(ASCII.lower) == Array("content-disposition".utf8) })?.value[...] else { continue }
            var name: [UInt8]?, filename: [UInt8]?
            while let f = cd.first, isSpace(f) { cd = cd.dropFirst() }
            while !cd.isEmpty {
                let (pair, rest) = getword(cd, 0x3B)
                cd = rest
                while let f = cd.first, isSpace(f) { cd = cd.dropFirst() }
                guard pair.contains(0x3D) else { continue }
                let (key, value) = getword(pair, 0x3D)
                let lower = key.map(ASCII.lower)
                if lower == Array("name".utf8) { name = getwordConf(value) } else if lower == Array("filename".utf8) { filename = getwordConf(value) }
            }
            if filename == nil, let name {
                let value = reader.readFile()
                count += 1
                if count <= parser.maxInputVars { parser.register(name, value: .string(ByteString(value.data)), into: post) }
                if name.map(ASCII.lower) == Array("max_file_size".utf8) { maxFileSize = strtoll(value.data) }
                continue
            }
            if uploads <= 0 { skip = true }
            guard name != nil || filename != nil else { break }  // "File Upload Mime headers garbled"
            let param: [UInt8]
            if let name { param = name } else { param = Array(String(anonymous).utf8); anonymous += 1 }
            let fileName = filename ?? []
            if !skip {
                // "never repair potential malicious user input": brackets must pair up, each `]`
                // followed by `[` or nothing.
                var depth = 0, i = 0
                while i < param.count {
                    if param[i] == 0x5B { depth += 1 } else if param[i] == 0x5D {
                        depth -= 1
                        if i + 1 < param.count, param[i + 1] != 0x5B { skip = true; break }
                    }
                    if depth < 0 { skip = true; break }
                    i += 1
                }
                if depth != 0 { skip = true }
            }
            if skip { continue }
            var error: Int64 = fileName.isEmpty ? errNoFile : 0
            var content: [UInt8] = []
            if error == 0 {
                uploads -= 1
                let (data, ended) = reader.readFile()
                if data.count > uploadMaxFilesize { error = errIniSize } else if maxFileSize > 0, data.count > maxFileSize { error = errFormSize } else {
                    content = data
                    if !ended { error = errPartial }
                }
            }
            let base = Array(fileName[((fileName.lastIndex { $0 == 0x2F || $0 == 0x5C }).map { $0 + 1 } ?? 0)...])
            var type: [UInt8] = []
            if error == 0, var value = headers.first(where: { $0.key.map(ASCII.lower) == Array("content-type".utf8) })?.value {
                if let semicolon = value.firstIndex(of: 0x3B) { value.removeSubrange(semicolon...) }
                type = value
            }
            // `f[x]` is registered as `f[name][x]`, …
            let isArray = param.contains(0x5B) && param.last == 0x5D
            let open = param.firstIndex(of: 0x5B) ?? param.count
            func field(_ key: String) -> [UInt8] {
                isArray ? Array(param[..<open]) + Array("[\(key)]".utf8) + param[open...] : param + Array("[\(key)]".utf8)
            }
            func cString(_ s: [UInt8]) -> [UInt8] { Array(s.prefix { $0 != 0 }) }
            parser.register(field("name"), value: .string(ByteString(cString(base))), into: files)
            parser.register(field("full_path"), value: .string(ByteString(cString(fileName))), into: files)
            parser.register(field("type"), value: .string(ByteString(cString(type))), into: files)
            parser.register(field("tmp_name"), value: .string(ByteString(error == 0 ? content : [])), into: files)
            parser.register(field("error"), value: .integer(error), into: files)
            parser.register(field("size"), value: .integer(error == 0 ? Int64(content.count) : 0), into: files)
        }
        return result()
    }

    /// `strtoll(s, NULL, 10)`: leading whitespace, a sign, digits.
    static func strtoll(_ s: [UInt8]) -> Int64 {
        var i = 0
        while i < s.count, isSpace(s[i]) { i += 1 }
        var negative = false
        if i < s.count, s[i] == 0x2D || s[i] == 0x2B { negative = s[i] == 0x2D; i += 1 }
        var n: Int64 = 0
        while i < s.count, (0x30...0x39).contains(s[i]) {
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(s[i] - 0x30))
            if o1 || o2 { return negative ? .min : .max }
            n = a
            i += 1
        }
        return negative ? -n : n
    }

    /// `multipart_buffer` over the whole body.
    struct Reader {
        let body: [UInt8]
        /// `--boundary`.
        let boundary: [UInt8]
        var position = 0
        /// The buffer's size (FILLUNIT, or the boundary and 6 bytes).
        var bufsize: Int { max(5 * 1024, boundary.count - 2 + 6) }

        /// `get_line`: to the next LF within the buffer (its CR dropped), a full buffer without
        /// one, or nil at the end of a line the body does not finish.
        mutating func getLine() -> ArraySlice<UInt8>? {
            let window = body[position..<min(body.count, position + bufsize)]
            if let lf = window.firstIndex(of: 0x0A) {
                var line = body[position..<lf]
                if line.last == 0x0D { line = line.dropLast() }
                position = lf + 1
                return line
            }
            guard window.count == bufsize else { return nil }
            position += bufsize
            return window
        }

        /// A line as C compares it: up to its first NUL.
        static func cString(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> { s.prefix { $0 != 0 } }

        /// `find_boundary` then `multipart_buffer_headers`: nil where no `--boundary` line comes.
        mutating func headers() -> [(key: [UInt8], value: [UInt8])]? {
            var found = false
            while let line = getLine() { if Self.cString(line).elementsEqual(boundary) { found = true; break } }
            guard found else { return nil }
            var headers: [(key: [UInt8], value: [UInt8])] = []
            var key: [UInt8]?, value: [UInt8]?
            while let raw = getLine() {
                let line = Self.cString(raw)
                if line.isEmpty { break }
                if !PHPMultipart.isSpace(line[line.startIndex]), let colon = line.firstIndex(of: 0x3A) {
                    if let k = key, let v = value { headers.append((k, v)) }
                    var v = line[(colon + 1)...]
                    while let f = v.first, PHPMultipart.isSpace(f) { v = v.dropFirst() }
                    key = Array(line[..<colon])
                    value = Array(v)
                } else if value != nil {
                    value! += line
                }
            }
            if let k = key, let v = value { headers.append((k, v)) }
            return headers
        }

        /// The data to the next `\n--boundary` (a file's, and a field's as `multipart_buffer_read_body` reads it) (or a beginning of one at the end of the body), a
        /// CR before it dropped (and left to be read), and whether a whole one was found.
        mutating func readFile() -> (data: [UInt8], ended: Bool) {
            let needle = [0x0A] + boundary
            var bound: Int?, ended = false
            var i = position
            while let p = body[i...].firstIndex(of: 0x0A) {
                let available = body.count - p
                if body[p..<min(body.count, p + needle.count)].elementsEqual(needle.prefix(min(needle.count, available))) {
                    bound = p
                    ended = available >= needle.count
                    break
                }
                i = p + 1
            }
            var end = bound ?? body.count
            if bound != nil, end > position, body[end - 1] == 0x0D { end -= 1 }
            defer { position = end }
            return (Array(body[position..<end]), ended)
        }
    }
}
