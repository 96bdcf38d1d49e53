/// Go 1.19 `net/url.ParseQuery`: `&` separates, a `;` in a pair is an error (and the pair is
/// skipped), `+` is a space, a bad `%` escape is an error that skips the pair. Go returns the
/// values *and* the error, so `parse` does too. Values are bytes, as Go strings are.
public struct GoParser: Sendable {
    /// Go's `url.ParseQuery`, which has no options.
    public init() {}

    /// The values (each name in order of first appearance, to its list) and Go's error text.
    public func parse(_ query: ByteString) -> (value: PekitValue, error: QueryServerError?) {
        let bytes = query.bytes
        var result = FlatValues()
        var error: QueryServerError?
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x26) ?? bytes.count
            defer { start = end + 1 }
            let pair = bytes[start..<end]
            if pair.contains(0x3B) {
                error = QueryServerError(server: "Go", kind: "", message: "invalid semicolon separator in query",
                                         key: ByteString(bytes: pair), offset: start)
                continue
            }
            if pair.isEmpty { continue }
            let equals = pair.firstIndex(of: 0x3D)
            let rawKey = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[($0 + 1)...] } ?? []
            do {
                let key = try Self.queryUnescape(rawKey)
                let value = try Self.queryUnescape(rawValue)
                result.append(ByteString(key), ByteString(value))
            } catch let escape as GoEscapeError {
                if error == nil {
                    error = QueryServerError(server: "Go", kind: "", message: "invalid URL escape \(Self.quote(escape.text))",
                                             key: ByteString(bytes: pair), offset: start)
                }
            } catch {}
        }
        return (result.value, error)
    }

    struct GoEscapeError: Error { let text: [UInt8] }

    /// `url.QueryUnescape`: `+` to space, `%XX` to a byte; a `%` without two hex digits fails
    /// naming at most three bytes from it.
    static func queryUnescape(_ s: ArraySlice<UInt8>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            switch s[i] {
            case 0x25:
                guard i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) else {
                    throw GoEscapeError(text: Array(s[i..<min(i + 3, s.endIndex)]))
                }
                out.append(hi << 4 | lo)
                i += 3
            case 0x2B: out.append(0x20); i += 1
            default: out.append(s[i]); i += 1
            }
        }
        return out
    }

    /// `strconv.Quote`: printable UTF-8 as is, the rest escaped.
    static func quote(_ bytes: [UInt8]) -> String {
        var out = "\""
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let (length, problem) = UTF8Decoding.sequence(in: buffer, at: i)
                if problem != nil {
                    out += "\\x" + ASCII.hex(buffer[i], uppercase: false); i += 1; continue
                }
                let scalar = String(decoding: buffer[i..<i + length], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\u{07}": out += "\\a"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{0B}": out += "\\v"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\x" + ASCII.hex(UInt8(scalar.value), uppercase: false) }
                    else if scalar.isPrintable { out.unicodeScalars.append(scalar) }
                    else if scalar.value < 0x10000 { out += "\\u" + hexDigits(scalar.value, width: 4) }
                    else { out += "\\U" + hexDigits(scalar.value, width: 8) }
                }
                i += length
            }
        }
        return out + "\""
    }
}

@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x37
    case 0x61...0x66: return b - 0x57
    default: return nil
    }
}


extension Unicode.Scalar {
    /// Printable as Go's `unicode.IsPrint` and Python's `str.isprintable` see it (letters, marks,
    /// numbers, punctuation, symbols and the ASCII space).
    var isPrintable: Bool {
        if self == " " { return true }
        switch properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return false
        default:
            return true
        }
    }
}

extension GoParser: QueryServerParser {
    /// Go's values, or its first error with the values it read beside it (`valuesRead`), as
    /// `url.ParseQuery` returns both.
    public func read(_ query: ByteString) throws -> PekitValue {
        let (value, error) = parse(query)
        guard var error else { return value }
        error.valuesRead = value
        throw error
    }
}
