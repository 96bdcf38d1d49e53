/// Text that came from a server or a file (a Location, a header, a reason phrase, a cookie value)
/// made safe to print for a person: control characters are escaped (`\r`, `\n`, `\x1B`, `\x9B`),
/// so a server cannot move the cursor, overwrite a line or send escape sequences to the terminal.
/// Tab stays, and with `keepingLineBreaks` LF does too (a multi-line explanation whose lines
/// are its own, as `pekit test` prints failures). Everything else is unchanged.
package func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
    let isControl = { (scalar: Unicode.Scalar) in isControlScalar(scalar) && !(keepingLineBreaks && scalar == "\n") }
    // Most text has none: a scan of its bytes says so (C1 controls are encoded as C2 80 to
    // C2 9F, so text without a C2 byte has none), before any walk of its scalars.
    var source = text
    let maybe = source.withUTF8 { $0.contains { $0 < 0x20 && $0 != 0x09 && !(keepingLineBreaks && $0 == 0x0A) || $0 == 0x7F || $0 == 0xC2 } }
    guard maybe, text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        guard isControl(scalar) else { out.unicodeScalars.append(scalar); continue }
        switch scalar {
        case "\r": out += "\\r"
        case "\n": out += "\\n"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return out
}

private func isControlScalar(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
}
