/// A URL written as text in a collection, split as Postman splits it (postman-url-encoder's
/// `parser.parse` and the SDK's `Url.parse`): not a URL standard's reading but Postman's own,
/// which keeps `{{variables}}` whole wherever they stand and never decodes or re-encodes.
enum PostmanURLParser {
    static func parse(_ text: String) -> PostmanCollection.URL {
        // Each {{variable}} stands as one private-use character while the text is split, so that
        // the separators inside one are not read (the parser's normalizeVariables).
        var variables: [String] = []
        var normalized = ""
        var rest = Substring(text.drop { $0.isWhitespace })
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}"),
              !rest[open.upperBound..<close.lowerBound].contains(where: { $0 == "{" || $0 == "}" }) {
            normalized += rest[..<open.lowerBound]
            normalized.unicodeScalars.append(Unicode.Scalar(0xF0000 + UInt32(variables.count))!)
            variables.append(String(rest[open.lowerBound..<close.upperBound]))
            rest = rest[close.upperBound...]
        }
        normalized += rest
        func restore<S: StringProtocol>(_ piece: S) -> String {
            guard !variables.isEmpty else { return String(piece) }
            var out = ""
            for scalar in piece.unicodeScalars {
                let index = Int(scalar.value) - 0xF0000
                if index >= 0, index < variables.count { out += variables[index] } else { out.unicodeScalars.append(scalar) }
            }
            return out
        }

        var url = PostmanCollection.URL()
        var s = Substring(normalized)
        if let hash = s.firstIndex(of: "#") { url.hash = restore(s[s.index(after: hash)...]); s = s[..<hash] }
        if let question = s.firstIndex(of: "?") {
            let segments = s[s.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
            url.query = segments.map { segment in
                // The SDK's QueryParam.parseSingle: `flag` has no value, `flag=` an empty one.
                guard let equals = segment.firstIndex(of: "=") else { return .init(key: restore(segment), value: nil, disabled: false) }
                return .init(key: restore(segment[..<equals]), value: restore(segment[segment.index(after: equals)...]), disabled: false)
            }
            s = s[..<question]
        }
        var text = String(s).replacingOccurrences(of: "\\", with: "/")
        if let separator = text.range(of: "://") {
            let scheme = String(text[..<separator.lowerBound])
            url.protocol = restore(scheme)
            let after = text[separator.upperBound...].drop { $0 == "/" }
            text = (scheme.lowercased() == "file" && after.count < text[separator.upperBound...].count ? "/" : "") + after
        }
        if let slash = text.firstIndex(of: "/") {
            url.path = text[text.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false).map(restore)
            text = String(text[..<slash])
        }
        if let at = text.lastIndex(of: "@") {
            let credentials = text[..<at]
            if let colon = credentials.firstIndex(of: ":") {
                url.user = restore(credentials[..<colon]); url.password = restore(credentials[credentials.index(after: colon)...])
            } else {
                url.user = restore(credentials)
            }
            text = String(text[text.index(after: at)...])
        }
        if let colon = text.lastIndex(of: ":"), !text[text.index(after: colon)...].contains("]") {
            url.port = restore(text[text.index(after: colon)...])
            text = String(text[..<colon])
        }
        if !text.isEmpty { url.host = restore(text) }
        // Path variables: each `:name` segment, once (the SDK's Url.parse).
        var seen = Set<String>()
        for segment in url.path ?? [] {
            guard let name = PostmanURLParser.pathVariable(segment), seen.insert(name).inserted else { continue }
            url.variables.append(.init(key: name, value: nil, disabled: false))
        }
        return url
    }

    /// The name of a `:name` segment (up to a `:` after it), or nil (the SDK's parsePathVariable).
    static func pathVariable(_ segment: String) -> String? {
        guard segment.hasPrefix(":") else { return nil }
        let name = segment.dropFirst().prefix { $0 != ":" }
        return name.isEmpty ? nil : String(name)
    }
}
