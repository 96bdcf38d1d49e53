import PekitCore

/// A request as a `.http` file writes it (JetBrains' HTTP Request in Editor specification, as
/// `HTTPFile` reads it): `### entry N`, the request line, the fields as written, an empty line and
/// the body in place. The format has no escapes: a request whose text the reader would take
/// otherwise (a `{{`, whitespace it trims, a body line it reads as a comment, a file, a handler
/// or the next request) is refused.
extension CollectionExport {
    static func httpRequest(_ request: Sent) throws -> String {
        guard HTTPFile.methods.contains(request.method) else {
            throw request.refuse("\(request.method) is not a method a .http file takes (\(HTTPFile.methods.sorted().joined(separator: ", ")))")
        }
        var lines = ["### entry \(request.number)", "\(request.method) \(try httpText(request.url, "the URL", request, spaces: false))"]
        for field in request.fields {
            if field.name.hasPrefix("#") { throw request.refuse("the field \(field.name) would read as a comment in a .http file") }
            lines.append("\(try httpText(field.name, "a field's name", request, spaces: false)): \(try httpText(field.value, "the field \(field.name)", request, spaces: true))")
        }
        guard let body = request.body else { return lines.joined(separator: "\n") + "\n" }
        guard !body.isEmpty else { throw request.refuse("an empty body: a .http file sends none (export as hurl or curl)") }
        guard let text = ByteString(body).utf8String else { throw request.refuse("the body is not UTF-8 text (export as hurl or curl, which carry any bytes)") }
        // A multipart body's lines end in CR LF, each of them (the reader's rule); any other's in LF.
        let multipart = request.fields.contains { PekitHeaders.sameName($0.name, "Content-Type") && $0.value.lowercased().hasPrefix("multipart/") }
        var bodyLines: [Substring]
        if multipart {
            guard text.hasSuffix("\r\n") else { throw request.refuse("a multipart body that does not end in CR LF cannot be written in a .http file") }
            // ("\r\n" is one Character: the scalars are counted, not the characters.)
            bodyLines = Substring(text.unicodeScalars.dropLast(2)).split(separator: "\r\n", omittingEmptySubsequences: false)
        } else {
            bodyLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        for line in bodyLines {
            if line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
                throw request.refuse("the body's line ends are mixed (a .http file writes LF, or CR LF in a multipart body)")
            }
            // As the reader takes a body's lines: a comment, a file (`< path`), or the end of the body.
            let t = line.trimmingOWS
            if HTTPFile.isComment(String(line)) || t.hasPrefix("< ") || HTTPFile.endsSection(t) {
                throw request.refuse("the body line '\(t.prefix(20))' would read as a comment, a file, a handler or the next request in a .http file (export as hurl)")
            }
            if line.contains("{{") { throw request.refuse("the body holds {{, which a .http file reads as a variable (export as hurl)") }
        }
        if let first = bodyLines.first, first.first == " " || first.first == "\t" || first.isEmpty {
            throw request.refuse("the body starts with whitespace, which a .http file does not send (export as hurl)")
        }
        if let last = bodyLines.last, last.last == " " || last.last == "\t" || last.isEmpty {
            throw request.refuse("the body ends with whitespace, which a .http file does not send (export as hurl)")
        }
        lines.append("")
        lines += bodyLines.map(String.init)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text a .http line holds as it is: no `{{`, no whitespace at either end (nor inside, for a
    /// URL or a name), no line end.
    static func httpText(_ text: String, _ what: String, _ request: Sent, spaces: Bool) throws -> String {
        if text.contains("{{") { throw request.refuse("\(what) holds {{, which a .http file reads as a variable (export as hurl)") }
        if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || (!spaces && ($0 == " " || $0 == "\t")) }) {
            throw request.refuse("\(what) holds whitespace a .http line cannot carry")
        }
        if text.first == " " || text.first == "\t" || text.last == " " || text.last == "\t" {
            throw request.refuse("\(what) has whitespace at an end, which a .http file trims")
        }
        return text
    }
}
