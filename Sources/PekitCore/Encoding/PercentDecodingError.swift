/// Why percent-decoding failed, where, and on which bytes.
public struct PercentDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Equatable, Sendable {
        /// `%` with fewer than two characters after it, at the end of the input.
        case truncatedEscape
        /// `%` followed by something that is not two hex digits.
        case invalidEscape
        /// `%u` not followed by four hex digits (only when `%uXXXX` decoding is on).
        case invalidUnicodeEscape
        /// A `%uD800`–`%uDFFF` escape that is not half of a surrogate pair.
        case loneSurrogate
        /// The decoded bytes are not valid UTF-8 and UTF-8 was required.
        case invalidUTF8
    }

    /// What was wrong.
    public let reason: Reason
    /// The 1-based byte position in the input where the bad sequence starts.
    public let position: Int
    /// The offending input bytes (`%zz`, `%2`, or the escapes that make the bad UTF-8).
    public let sequence: [UInt8]

    /// An error for `sequence`, found at the 1-based byte `position`.
    public init(reason: Reason, position: Int, sequence: [UInt8]) {
        self.reason = reason
        self.position = position
        self.sequence = sequence
    }

    /// For example `invalid escape "%zz" at byte 4`.
    public var description: String {
        let shown = "\"" + Self.printable(sequence) + "\""
        switch reason {
        case .truncatedEscape:
            return "incomplete escape \(shown) at byte \(position) (a % needs two hex digits; write %25 for a literal %)"
        case .invalidEscape:
            return "invalid escape \(shown) at byte \(position) (a % needs two hex digits; write %25 for a literal %)"
        case .invalidUnicodeEscape:
            return "invalid %u escape \(shown) at byte \(position) (%u needs four hex digits)"
        case .loneSurrogate:
            return "unpaired surrogate \(shown) at byte \(position)"
        case .invalidUTF8:
            return "decoded bytes are not valid UTF-8: \(shown) at byte \(position)"
        }
    }

    // Shows bytes as text where printable ASCII, `\xNN` elsewhere, so a message never carries raw control bytes.
    /// Bytes as a message shows them: printable ASCII as it is, anything else as `\xNN`, so no control byte reaches a terminal.
    public static func printable(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }
}
