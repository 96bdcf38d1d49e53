/// Reading the Netscape cookies.txt format in the file's own bytes: lines and fields are found in
/// place (memchr), and only the fields a cookie keeps become strings.
extension CookieJar {
    /// Stores the cookies of Netscape file text through `set` (inside `bulkSet`); each skipped
    /// line goes to `warn` as `name:LINE: reason`. Returns how many cookies were stored.
    func loadNetscape(_ bytes: [UInt8], name: String, warn: (String) -> Void) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            let count = buffer.count
            var loaded = 0, number = 0
            // The attributes a "#pekit-attributes:" line gives the next cookie line.
            var pendingSameSite: Cookie.SameSite?, pendingPartitioned = false, pendingPartitionKey: String?
            // Where each field of a line starts and ends, reused from line to line.
            var fields: [Range<Int>] = []
            fields.reserveCapacity(8)
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
            func starts(_ start: Int, _ end: Int, with word: StaticString) -> Bool {
                end - start >= word.utf8CodeUnitCount && CLibrary.equal(base + start, word.utf8Start, count: word.utf8CodeUnitCount)
            }
            func flag(_ range: Range<Int>) -> Bool? {
                let field = UnsafeBufferPointer(rebasing: buffer[range])
                return ASCII.equals(field, ignoringCase: "true") ? true : ASCII.equals(field, ignoringCase: "false") ? false : nil
            }
            var lineStart = 0
            while lineStart <= count {
                var lineEnd = count
                if lineStart < count, let newline = CLibrary.find(0x0A, in: base + lineStart, count: count - lineStart) {
                    lineEnd = UnsafeRawPointer(base).distance(to: newline)
                }
                var start = lineStart, end = lineEnd
                lineStart = lineEnd + 1
                number += 1
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                var httpOnly = false
                if starts(start, end, with: "#pekit-attributes:") {
                    pendingSameSite = nil; pendingPartitioned = false; pendingPartitionKey = nil
                    let attributes = text((start + Self.attributesPrefix.utf8.count)..<end)
                    for attribute in attributes.split(separator: ";") {
                        let parts = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingOWS }
                        switch parts.first?.lowercased() {
                        case "samesite": pendingSameSite = parts.count > 1 ? Cookie.SameSite.allCases.first { $0.rawValue.lowercased() == parts[1].lowercased() } : nil
                        case "partitioned": pendingPartitioned = true; pendingPartitionKey = parts.count > 1 ? String(parts[1]) : nil
                        default: warn("\(name):\(number): unknown attribute \"\(attribute.trimmingOWS)\" ignored")
                        }
                    }
                    continue
                }
                let sameSite = pendingSameSite, partitioned = pendingPartitioned, partitionKey = pendingPartitionKey
                if starts(start, end, with: "#HttpOnly_") {
                    httpOnly = true
                    start += 10
                } else if (start < end && buffer[start] == 0x23) || buffer[start..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    continue
                }
                pendingSameSite = nil; pendingPartitioned = false; pendingPartitionKey = nil
                fields.removeAll(keepingCapacity: true)
                var fieldStart = start
                while true {
                    var fieldEnd = end
                    // The value is the rest of the line: a tab in it is the value's (browsers keep
                    // tabs in values, RFC 6265bis §5.6).
                    if fields.count < 6, fieldStart < end, let tab = CLibrary.find(0x09, in: base + fieldStart, count: end - fieldStart) {
                        fieldEnd = UnsafeRawPointer(base).distance(to: tab)
                    }
                    fields.append(fieldStart..<fieldEnd)
                    if fieldEnd == end { break }
                    fieldStart = fieldEnd + 1
                }
                guard fields.count == 7 || fields.count == 6 else {
                    warn("\(name):\(number): expected 7 tab-separated fields, found \(fields.count); line skipped")
                    continue
                }
                let pathField = fields[2]
                guard let subdomains = flag(fields[1]), let secure = flag(fields[3]),
                      let expires = ASCII.int64(UnsafeBufferPointer(rebasing: buffer[fields[4]])),
                      pathField.isEmpty || buffer[pathField.lowerBound] == 0x2F else {
                    warn("\(name):\(number): malformed fields (subdomains and secure must be TRUE or FALSE, expires a number, path start with /); line skipped")
                    continue
                }
                var domainField = fields[0]
                let dotted = !domainField.isEmpty && buffer[domainField.lowerBound] == 0x2E
                if dotted { domainField = domainField.dropFirst() }
                guard !domainField.isEmpty else { warn("\(name):\(number): empty domain; line skipped"); continue }
                var cookie = Cookie(name: text(fields[5]), value: "",
                                    domain: ASCII.lowercased(UnsafeBufferPointer(rebasing: buffer[domainField])),
                                    path: pathField.isEmpty ? "/" : text(pathField), expires: expires == 0 ? nil : Double(expires),
                                    hostOnly: !subdomains && !dotted, secure: secure, httpOnly: httpOnly, sameSite: sameSite, partitioned: partitioned,
                                    partitionKey: partitionKey)
                // The value's bytes as the file has them (not UTF-8 ones too).
                if fields.count == 7 { cookie.setValue(bytes: UnsafeBufferPointer(rebasing: buffer[fields[6]])) }
                do { try set(consume cookie) } catch { warn("\(name):\(number): \(error); line skipped"); continue }
                loaded += 1
            }
            return loaded
        }
    }
}
