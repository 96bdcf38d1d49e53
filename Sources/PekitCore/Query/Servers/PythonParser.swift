/// Python 3.11 `urllib.parse.parse_qs` (and `parse_qsl`, whose pairs it groups), with its own
/// options under their own names. Input is read as the `str` a Python program would pass: the
/// bytes as UTF-8 text. Percent-escapes are decoded a run of ASCII at a time, as `unquote` does,
/// then read with `encoding` and `errors` (by default invalid UTF-8 becomes U+FFFD).
public struct PythonParser: Sendable {
    /// Text encodings `encoding =` takes.
    public enum Encoding: String, Sendable, CaseIterable {
        /// `utf-8` (Python's default), `latin-1` or `ascii`.
        case utf8 = "utf-8", latin1 = "latin-1", ascii
    }
    /// What `errors =` takes (the codec error handlers that give text back). `surrogateescape`
    /// gives the bytes that do not decode back as they are (Python holds them as lone surrogates,
    /// which `encode(errors="surrogateescape")` turns back into those bytes).
    public enum Errors: String, Sendable, CaseIterable {
        /// Python's error handlers of the same names.
        case replace, strict, ignore, backslashreplace, surrogateescape
    }

    /// Keep `a=` and `a` as empty values (otherwise they are dropped).
    public var keepBlankValues = false
    /// Raise `ValueError` for an empty piece or a piece without `=`.
    public var strictParsing = false
    /// Raise `ValueError` when there are more fields than this.
    public var maxNumFields: Int?
    /// The piece separator (Python 3.10+: one string, `&` by default).
    public var separator: ByteString = "&"
    /// The encoding escapes are decoded with (`encoding=`).
    public var encoding = Encoding.utf8
    /// What becomes of bytes that do not decode (`errors=`).
    public var errors = Errors.replace

    /// `parse_qs`'s defaults.
    public init() {}

    /// Each name, in order of first appearance, to the list of its values.
    /// - Throws: `QueryServerError` (`ValueError`, `UnicodeDecodeError`) where Python raises.
    public func parse(_ query: ByteString) throws -> PekitValue {
        var result = FlatValues()
        for (name, value) in try pairs(query) { result.append(name, value) }
        return result.value
    }

    /// `parse_qsl`: the name and value of each pair, in order (what `parse_qs` groups).
    /// - Throws: `QueryServerError` (`ValueError`, `UnicodeDecodeError`) where Python raises.
    public func pairs(_ query: ByteString) throws -> [(name: ByteString, value: ByteString)] {
        let qs = query.bytes
        let sep = separator.bytes
        guard !sep.isEmpty else {
            throw QueryServerError(server: "Python", kind: "ValueError", message: "Separator must be of type string or bytes.")
        }
        let pieces = qs.isEmpty ? [] : split(qs, sep)
        if let limit = maxNumFields, limit < pieces.count {
            throw QueryServerError(server: "Python", kind: "ValueError", message: "Max number of fields exceeded")
        }
        var result: [(name: ByteString, value: ByteString)] = []
        for range in pieces {
            let piece = qs[range]
            if piece.isEmpty && !strictParsing { continue }
            let equals = piece.firstIndex(of: 0x3D)
            var rawValue: ArraySlice<UInt8> = []
            if let equals {
                rawValue = piece[(equals + 1)...]
            } else {
                if strictParsing {
                    throw QueryServerError(server: "Python", kind: "ValueError", message: "bad query field: \(Self.repr(Array(piece)))",
                                           key: ByteString(bytes: piece), offset: range.lowerBound)
                }
                if !keepBlankValues { continue }
            }
            guard !rawValue.isEmpty || keepBlankValues else { continue }
            let name = try unquote(piece[..<(equals ?? piece.endIndex)], offset: range.lowerBound)
            let value = try unquote(rawValue, offset: range.lowerBound)
            result.append((ByteString(name), ByteString(value)))
        }
        return result
    }

    private func split(_ bytes: [UInt8], _ sep: [UInt8]) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = 0, i = 0
        while i + sep.count <= bytes.count {
            if bytes[i] == sep[0] && bytes[i..<i + sep.count].elementsEqual(sep) {
                parts.append(start..<i); i += sep.count; start = i
            } else {
                i += 1
            }
        }
        parts.append(start..<bytes.count)
        return parts
    }

    /// `unquote(s.replace('+', ' '), encoding, errors)`.
    private func unquote(_ text: ArraySlice<UInt8>, offset: Int) throws -> [UInt8] {
        guard text.contains(0x25) else { return text.map { $0 == 0x2B ? 0x20 : $0 } }
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] >= 0x80 { out.append(text[i]); i += 1; continue }
            // One run of ASCII: percent-decode it to bytes, then read them with the codec.
            var run: [UInt8] = []
            while i < text.endIndex, text[i] < 0x80 {
                let b = text[i]
                if b == 0x25, i + 2 < text.endIndex, let hi = hexValue(text[i + 1]), let lo = hexValue(text[i + 2]) {
                    run.append(hi << 4 | lo); i += 3
                } else {
                    run.append(b == 0x2B ? 0x20 : b); i += 1
                }
            }
            out += try decodeRun(run, key: text, offset: offset)
        }
        return out
    }

    private func decodeRun(_ run: [UInt8], key: ArraySlice<UInt8>, offset: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        try run.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let b = buffer[i]
                var length = 1
                var problem: UTF8Decoding.Problem? = nil
                switch encoding {
                case .latin1:
                    if b < 0x80 { out.append(b) } else { out += [0xC0 | b >> 6, 0x80 | b & 0x3F] }
                    i += 1; continue
                case .ascii:
                    if b >= 0x80 { problem = .invalidStartByte }
                case .utf8:
                    (length, problem) = UTF8Decoding.sequence(in: buffer, at: i)
                }
                guard let problem else { out += buffer[i..<i + length]; i += length; continue }
                switch errors {
                case .replace: out += [0xEF, 0xBF, 0xBD]
                case .ignore: break
                case .surrogateescape: out += buffer[i..<i + length]
                case .backslashreplace: for k in i..<i + length { out += Array("\\x\(ASCII.hex(buffer[k], uppercase: false))".utf8) }
                case .strict:
                    let position = length == 1 ? "byte 0x\(ASCII.hex(b, uppercase: false)) in position \(i)" : "bytes in position \(i)-\(i + length - 1)"
                    let reason = encoding == .ascii ? "ordinal not in range(128)" : problem.rawValue
                    throw QueryServerError(server: "Python", kind: "UnicodeDecodeError",
                                           message: "'\(encoding == .ascii ? "ascii" : "utf-8")' codec can't decode \(position): \(reason)",
                                           key: ByteString(bytes: key), offset: offset)
                }
                i += length
            }
        }
        return out
    }

    /// Python's `repr` of a `str`.
    static func repr(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let quote: Character = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var out = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Character(scalar) == quote { out += "\\" + String(quote) }
                else if scalar.isPrintable { out.unicodeScalars.append(scalar) }
                else if scalar.value < 0x100 { out += "\\x" + ASCII.hex(UInt8(scalar.value), uppercase: false) }
                else if scalar.value < 0x10000 { out += "\\u" + hexDigits(scalar.value, width: 4) }
                else { out += "\\U" + hexDigits(scalar.value, width: 8) }
            }
        }
        return out + String(quote)
    }
}

/// Lower-case hex of `value`, zero-padded to `width` digits.
func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

extension PythonParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { try parse(query) }

    /// `parse_qs`'s keyword arguments.
    static let optionRows: [QueryServer.OptionRow<PythonParser>] = [
        .flag("keep_blank_values", \.keepBlankValues),
        .flag("strict_parsing", \.strictParsing),
        .integer("max_num_fields", \.maxNumFields),
        .text("separator", \.separator),
        .custom("encoding", takes: alternatives(Encoding.allCases.map(\.rawValue))) { p, value in
            // Python's codec names, with the aliases people write.
            let expected = alternatives(Encoding.allCases.map(\.rawValue))
            guard case .string(let s) = value.value else { throw value.fail(expected) }
            let aliases = ["utf8": "utf-8", "latin1": "latin-1", "iso-8859-1": "latin-1", "us-ascii": "ascii"]
            let lower = s.description.lowercased()
            guard let encoding = Encoding(rawValue: aliases[lower] ?? lower) else { throw value.fail(expected) }
            p.encoding = encoding
        },
        .choice("errors", \.errors),
    ]
}
