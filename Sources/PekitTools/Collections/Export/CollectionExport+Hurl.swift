import PekitCore

/// A request as a Hurl entry writes it (Hurl's grammar, as `HurlFile` reads it): the request line,
/// each field as a key string and a value string (escaped where Hurl would read a character
/// otherwise: `\#`, `\\`, `\:` in a name, `\u{7b}` for a `{` that could start a placeholder,
/// control characters as `\u{…}`), and the body as `base64,…;`, which holds any bytes.
extension CollectionExport {
    static func hurlEntry(_ request: Sent) throws -> String {
        var lines = ["# entry \(request.number)", "\(request.method) \(hurlValue(request.url))"]
        // (A field's value has no whitespace at its ends, which Hurl would trim: the request's
        // fields hold values without it, as RFC 9110 §5.5 reads them.)
        for field in request.fields { lines.append("\(hurlKey(field.name)): \(hurlValue(field.value))") }
        if let body = request.body {
            lines.append("base64," + String(decoding: Base64.encode(body, alphabet: .standard), as: UTF8.self) + ";")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Hurl value string that reads back as `text`.
    static func hurlValue(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "{": out += "\\u{7b}"
            case _ where c.value < 0x20 || c.value == 0x7F: out += "\\u{\(String(c.value, radix: 16))}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A Hurl key string that reads back as `name`: letters, digits and `_-.[]@$` as they are, the
    /// rest escaped.
    static func hurlKey(_ name: String) -> String {
        var out = ""
        for c in name.unicodeScalars {
            if c.properties.isAlphabetic || ("0"..."9").contains(c) || "_-.[]@$".unicodeScalars.contains(c) { out.unicodeScalars.append(c) }
            else if c == "#" || c == ":" || c == "\\" { out += "\\" + String(c) }
            else { out += "\\u{\(String(c.value, radix: 16))}" }
        }
        return out
    }
}
