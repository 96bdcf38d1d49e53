/// Lua string literals, as a script or a person reads them back: `"` and `\` escaped, `\n`,
/// `\r`, `\t`, and other control bytes as three-digit decimal escapes (`\027`, never ambiguous
/// with a digit after it).
public enum LuaLiteral {
    /// `text` as a literal: UTF-8 stays readable, control characters are escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            if let escape = escape(c.value) { out += escape } else { out.unicodeScalars.append(c) }
        }
        return out + "\""
    }

    /// Any bytes as a literal: printable ASCII as it is, every other byte escaped.
    public static func quoted(bytes: [UInt8]) -> String {
        var out = "\""
        for b in bytes {
            if let escape = escape(UInt32(b)) { out += escape }
            else if b >= 0x80 { out += decimal(UInt32(b)) }
            else { out.unicodeScalars.append(Unicode.Scalar(b)) }
        }
        return out + "\""
    }

    private static func escape(_ value: UInt32) -> String? {
        switch value {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0..<0x20, 0x7F: return decimal(value)
        default: return nil
        }
    }

    private static func decimal(_ value: UInt32) -> String {
        let digits = String(value)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
