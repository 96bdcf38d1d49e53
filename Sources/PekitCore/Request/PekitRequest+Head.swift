/// The one writer of a request's head in pekit: what `raw()` prints and what pekit's own
/// transfer sends.
extension PekitRequest {
    /// The head as libcurl writes it (and pekit's own transfer sends it): the request line in
    /// HTTP/1.1, the first Host field (libcurl puts it first and drops any other), the other
    /// fields in order (an empty value as `Name:`), an empty line.
    ///
    /// Complexity: O(n) in the head's length (none where a template made it with the request); the URL's carried parse is used as it is (no
    /// target string is made), as this runs for every request pekit sends itself.
    public func head() -> [UInt8] {
        if let madeHead { return madeHead }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        // Strings' bytes copied whole (this runs per request).
        func add(_ text: String) {
            var text = text
            text.withUTF8 { out.append(contentsOf: $0) }
        }
        add(method.rawValue)
        out.append(0x20)
        if let target = requestTarget {
            add(target)
        } else if let parsed = parsedURL {
            // The carried parse's path and query, appended as they are (no target string made).
            if parsed.path.isEmpty { out.append(0x2F) } else { add(parsed.path) }
            if let query = parsed.query { out.append(0x3F); add(query) }
        } else {
            var url = url
            url.withUTF8 { bytes in
                guard let (range, slash) = Self.targetBounds(in: bytes) else { out.append(0x2F); return }
                if slash { out.append(0x2F) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            }
        }
        add(" HTTP/1.1\r\n")
        let fields = headers.fields
        let hostIndex = fields.firstIndex { $0.name.utf8.count == 4 && PekitHeaders.sameName($0.name, "Host") }
        func write(_ field: PekitHeaders.Field) {
            add(field.name)
            out.append(0x3A)
            if !field.value.isEmpty {
                add(field.spacing)
                if let raw = field.rawValue { out += raw } else { add(field.value) }
            }
            out.append(0x0D)
            out.append(0x0A)
        }
        if let hostIndex { write(fields[hostIndex]) }
        for field in fields where !(field.name.utf8.count == 4 && PekitHeaders.sameName(field.name, "Host")) { write(field) }
        out += "\r\n".utf8
        return out
    }
}
