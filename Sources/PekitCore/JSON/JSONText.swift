/// JSON to and from `PekitValue`, keeping object key order (objects become ordered maps) and
/// strings as bytes. Numbers without a fraction or exponent that fit in 64 bits are integers.
public enum JSONText {
    /// Why a JSON text could not be read: the byte position (1-based) and the cause.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// Where, as a 1-based byte offset.
        public let position: Int
        /// What is wrong there.
        public let reason: String
        public var description: String { "invalid JSON at byte \(position): \(reason)" }
    }

    /// What a member name that appears twice in one object gives (RFC 8259 §4 leaves it open).
    public enum Duplicates: String, Sendable {
        /// Both entries, in order (a map may then hold a key twice).
        case keep
        /// One entry, at the first one's place, with the last value (as JavaScript's
        /// `JSON.parse` and Python's `json` read it).
        case last
        /// A `ParseError` naming the member (what RFC 7515 §4 and RFC 7519 §4 allow a JWT parser).
        case error
    }

    /// Parses a JSON text. Nesting deeper than `maxDepth` is an error, never a stack overflow.
    /// - Parameter text: the JSON text's bytes (UTF-8).
    /// - Parameter maxDepth: the deepest nesting read.
    /// - Parameter duplicates: what a member name given twice in one object gives.
    public static func parse<Bytes: Collection>(_ text: Bytes, maxDepth: Int = 512, duplicates: Duplicates = .keep) throws -> PekitValue where Bytes.Element == UInt8 {
        var parser = Parser(bytes: Array(text), maxDepth: maxDepth, duplicates: duplicates)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Writes `value` as compact JSON (ordered maps in their order; sets as arrays; NaN and
    /// infinities as null; bytes that are not UTF-8 as `\u00XX` escapes of each byte).
    public static func write(_ value: PekitValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }

    /// Why a value cannot be written as JSON without changing it.
    public struct EncodeError: Error, Equatable, CustomStringConvertible {
        /// Where: `value.user.name`, `value.tags[2]` (1-based, as Lua counts).
        public let path: String
        /// The byte that cannot be written.
        public let byte: UInt8
        /// Where it is in its string, 1-based.
        public let position: Int
        public var description: String {
            "\(path): not UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2)) at \(position)); JSON text can only carry UTF-8, so send these bytes as a raw body or encode them (base64, percent-encoding) first"
        }
    }

    /// Writes `value` as JSON like `write`, but refuses a string or key that is not UTF-8
    /// (which `write` would turn into other characters), naming where it is.
    /// - Throws: `EncodeError` with the key path of the first such string, `root` its first part.
    public static func encode(_ value: PekitValue, root: String = "value") throws -> [UInt8] {
        try checkUTF8(value, path: root)
        return write(value)
    }

    /// `encode`, indented two spaces a level as `JSON.stringify(v, null, 2)` writes it (key order
    /// kept; empty arrays and objects as `[]` and `{}`).
    public static func encodePretty(_ value: PekitValue, root: String = "value") throws -> [UInt8] {
        try checkUTF8(value, path: root)
        var out: [UInt8] = []
        writePretty(value, depth: 0, into: &out)
        return out
    }

    private static func writePretty(_ value: PekitValue, depth: Int, into out: inout [UInt8]) {
        func newline(_ level: Int) { out.append(0x0A); out += [UInt8](repeating: 0x20, count: 2 * level) }
        switch value {
        case .array(let items), .set(let items):
            guard !items.isEmpty else { out += [0x5B, 0x5D]; return }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(depth + 1)
                writePretty(item, depth: depth + 1, into: &out)
            }
            newline(depth)
            out.append(0x5D)
        case .map(let map):
            guard !map.entries.isEmpty else { out += [0x7B, 0x7D]; return }
            out.append(0x7B)
            for (i, entry) in map.entries.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(depth + 1)
                writeString(entry.key.bytes, into: &out)
                out += [0x3A, 0x20]
                writePretty(entry.value, depth: depth + 1, into: &out)
            }
            newline(depth)
            out.append(0x7D)
        default:
            write(value, into: &out)
        }
    }

    private static func checkUTF8(_ value: PekitValue, path: String) throws {
        func check(_ bytes: [UInt8], _ path: String) throws {
            let bad = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0) }
            if let bad { throw EncodeError(path: path, byte: bytes[bad], position: bad + 1) }
        }
        switch value {
        case .string(let s): try check(s.bytes, path)
        case .array(let items), .set(let items):
            for (i, item) in items.enumerated() { try checkUTF8(item, path: "\(path)[\(i + 1)]") }
        case .map(let map):
            for entry in map.entries {
                let name = "\(path).\(PercentDecodingError.printable(entry.key.bytes))"
                try check(entry.key.bytes, name)
                try checkUTF8(entry.value, path: name)
            }
        case .null, .boolean, .integer, .number, .bigInteger: return
        }
    }

    static func write(_ value: PekitValue, into out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .boolean(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let n): out += Array(String(n).utf8)
        case .bigInteger(let digits): out += Array(digits.utf8)
        case .number(let x): out += Array((x.isFinite ? "\(x)" : "null").utf8)
        case .string(let s): writeString(s.bytes, into: &out)
        case .array(let items), .set(let items):
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                write(item, into: &out)
            }
            out.append(0x5D)
        case .map(let map):
            out.append(0x7B)
            for (i, entry) in map.entries.enumerated() {
                if i > 0 { out.append(0x2C) }
                writeString(entry.key.bytes, into: &out)
                out.append(0x3A)
                write(entry.value, into: &out)
            }
            out.append(0x7D)
        }
    }

    static func writeString(_ bytes: [UInt8], into out: inout [UInt8]) {
        let valid = UTF8Validation.isValid(bytes)
        out.append(0x22)
        for byte in bytes {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0x00..<0x20, 0x7F: out += Array(String(format4: byte).utf8)
            case 0x80...0xFF where !valid: out += Array(String(format4: byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    private struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        let duplicates: Duplicates
        var i = 0

        func error(_ reason: String) -> ParseError { ParseError(position: i + 1, reason: reason) }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func value(depth: Int) throws -> PekitValue {
            guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
            guard i < bytes.count else { throw error("unexpected end of input") }
            switch bytes[i] {
            case 0x7B: return try object(depth: depth)
            case 0x5B: return try array(depth: depth)
            case 0x22: return .string(ByteString(try string()))
            case 0x74: try literal("true"); return .boolean(true)
            case 0x66: try literal("false"); return .boolean(false)
            case 0x6E: try literal("null"); return .null
            case 0x2D, 0x30...0x39: return try number()
            default: throw error("unexpected character \"\(PercentDecodingError.printable([bytes[i]]))\"")
            }
        }

        mutating func literal(_ word: String) throws {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("expected \(word)") }
            i += w.count
        }

        mutating func object(depth: Int) throws -> PekitValue {
            i += 1
            var entries: [PekitMap.Entry] = []
            skipSpace()
            if i < bytes.count, bytes[i] == 0x7D { i += 1; return .map(PekitMap(ordered: entries)) }
            var seen: [ByteString: Int] = [:]
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a string key") }
                let start = i
                let key = ByteString(try string())
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':' after a key") }
                i += 1
                skipSpace()
                let member = try value(depth: depth + 1)
                if duplicates != .keep {
                    if let first = seen[key] {
                        if duplicates == .error {
                            i = start
                            throw error("the member \"\(key)\" appears twice in one object")
                        }
                        entries[first] = .init(key: key, value: member)
                    } else {
                        seen[key] = entries.count
                        entries.append(.init(key: key, value: member))
                    }
                } else {
                    entries.append(.init(key: key, value: member))
                }
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end of input in an object") }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x7D { i += 1; return .map(PekitMap(ordered: entries)) }
                throw error("expected ',' or '}' in an object")
            }
        }

        mutating func array(depth: Int) throws -> PekitValue {
            i += 1
            var items: [PekitValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end of input in an array") }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x5D { i += 1; return .array(items) }
                throw error("expected ',' or ']' in an array")
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("incomplete \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let d = HexDigit.value(bytes[i]) else { throw error("invalid \\u escape") }
                value = value << 4 | UInt32(d)
                i += 1
            }
            return value
        }

        mutating func string() throws -> [UInt8] {
            let start = i
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { i = start; throw error("unterminated string") }
                let b = bytes[i]
                if b == 0x22 { i += 1; break }
                if b < 0x20 { throw error("control character in a string") }
                if b != 0x5C { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw error("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), i + 6 <= bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 {
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate \\u\(String(code, radix: 16))") }
                    out += Array(String(Character(scalar)).utf8)
                default:
                    throw error("invalid escape \\\(PercentDecodingError.printable([e]))")
                }
            }
            return out
        }

        mutating func number() throws -> PekitValue {
            let start = i
            if bytes[i] == 0x2D { i += 1 }
            var isInteger = true
            while i < bytes.count {
                let b = bytes[i]
                if (0x30...0x39).contains(b) { i += 1 } else if b == 0x2E || b == 0x65 || b == 0x45 || b == 0x2B || b == 0x2D { isInteger = false; i += 1 } else { break }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if isInteger, let n = Int64(text) { return .integer(n) }
            if isInteger, text.last.map({ ("0"..."9").contains($0) }) == true {
                return .bigInteger(text)
            }
            guard let x = Double(text), text.last.map({ ("0"..."9").contains($0) }) == true else {
                i = start
                throw error("invalid number \"\(text)\"")
            }
            guard x.isFinite else {
                i = start
                throw error("number \"\(text)\" is out of range")  // found by scripts/fuzz json
            }
            return .number(x)
        }
    }
}

extension String {
    /// `\u00XX` for a byte.
    init(format4 byte: UInt8) {
        self = "\\u00" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
    }
}
