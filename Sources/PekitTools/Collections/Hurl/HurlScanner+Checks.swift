/// What Hurl's parser checks beyond the shape of a line, where Hurl checks it: an option's value
/// of its kind, a cookie query's attribute, the kinds of value a predicate takes, a regex that
/// compiles; each error at the place and in the words Hurl's parser uses.
extension HurlScanner {
    /// Whether the line at the place reads as `name: value` (a header, a parameter).
    var atKeyValue: Bool {
        var probe = self
        guard (try? probe.keyString()) != nil else { return false }
        probe.skipSpaces()
        return probe.peek() == ":"
    }

    static let booleanOptions: Set<String> = ["compressed", "location", "location-trusted", "http1.0", "http1.1", "http2", "http3",
                                              "insecure", "ipv4", "ipv6", "netrc", "netrc-optional", "path-as-is", "skip",
                                              "verbose", "very-verbose"]
    static let integerOptions: Set<String> = ["limit-rate", "max-redirs", "repeat", "retry"]
    static let durationOptions: Set<String> = ["connect-timeout", "delay", "retry-interval", "max-time"]
    static let fileOptions: Set<String> = ["cacert", "cert", "key", "output", "netrc-file", "unix-socket"]

    /// An option's written value (one with a placeholder is checked when it is rendered).
    func checkOption(_ name: String, _ value: HurlFile.Template, at start: Int) throws {
        guard value.allSatisfy({ if case .text = $0 { return true }; return false }) else { return }
        let text = value.map { if case .text(let t) = $0 { return t }; return "" }.joined()
        if Self.booleanOptions.contains(name), text != "true", text != "false" { throw error("expecting 'true|false'", at: start) }
        if Self.integerOptions.contains(name) {
            guard let n = Int(text), n >= (name == "limit-rate" ? 0 : -1) else {
                throw error(name == "limit-rate" ? "expecting an integer" : "expecting 'integer >= -1'", at: start)
            }
        }
        if Self.durationOptions.contains(name) {
            let digits = text.prefix { ("0"..."9").contains($0) }
            guard !digits.isEmpty else { throw error("expecting a duration (an integer, and ms, s or m)", at: start) }
            let unit = text.dropFirst(digits.count)
            if !unit.isEmpty && !["ms", "s", "m"].contains(unit) {
                throw error("the duration unit is not valid. Did you mean ms?", at: start + digits.unicodeScalars.count)
            }
        }
        if Self.fileOptions.contains(name), text.isEmpty { throw error("expecting a filename", at: start) }
    }

    static let cookieAttributes: Set<String> = ["value", "expires", "max-age", "domain", "path", "secure", "httponly", "samesite"]

    /// `cookie "name[Attribute]"`: the attribute one Hurl reads (case aside). `start` is the
    /// quote's place.
    func checkCookieQuery(_ argument: HurlFile.Template, at start: Int) throws {
        guard argument.count == 1, case .text(let spec) = argument[0], let open = spec.firstIndex(of: "[") else { return }
        let attribute = spec[spec.index(after: open)...].prefix { $0 != "]" }
        guard Self.cookieAttributes.contains(attribute.lowercased()) else {
            throw error("the cookie attribute is not valid", at: start + 1 + spec.unicodeScalars.distance(from: spec.unicodeScalars.startIndex, to: spec.unicodeScalars.index(after: open.samePosition(in: spec.unicodeScalars)!)))
        }
    }

    /// The kinds of value a predicate takes (docs/grammar.md, "Predicates"; `contains` takes any
    /// value, as Hurl's own suite writes it: bytes, null in a list).
    func checkPredicateValue(_ predicate: String, _ value: HurlFile.Value, at start: Int) throws {
        let ok: Bool
        switch (predicate, value) {
        case ("startsWith", .string), ("startsWith", .bytes), ("startsWith", .expression),
             ("endsWith", .string), ("endsWith", .bytes), ("endsWith", .expression),
             ("matches", .string), ("matches", .regex), ("matches", .expression),
             (">", .number), (">", .string), (">", .expression), (">=", .number), (">=", .string), (">=", .expression),
             ("<", .number), ("<", .string), ("<", .expression), ("<=", .number), ("<=", .string), ("<=", .expression):
            ok = true
        case ("startsWith", _), ("endsWith", _), ("matches", _), (">", _), (">=", _), ("<", _), ("<=", _):
            ok = false
        default:
            ok = true
        }
        if !ok { throw error("invalid predicate value", at: start) }
        if case .regex(let pattern) = value { try checkRegex(pattern, at: start + 1) }
    }

    /// A `/regex/` that compiles (Swift's engine reads Hurl's syntax), with Rust's `regex` rule
    /// that Swift's engine (as PCRE) lets pass: a `{` outside a class starts a repetition.
    func checkRegex(_ pattern: String, at start: Int) throws {
        let chars = Array(pattern.unicodeScalars)
        var i = 0, inClass = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if inClass { if c == "]" { inClass = false } } else if c == "[" { inClass = true } else if c == "{" {
                var j = i + 1
                while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "," { j += 1 }
                let inside = String(String.UnicodeScalarView(chars[(i + 1)..<min(j, chars.count)]))
                if j >= chars.count || chars[j] != "}" || inside.isEmpty || inside.hasPrefix(",") || inside.filter({ $0 == "," }).count > 1 {
                    throw error("invalid Regex expression: repetition quantifier expects a valid decimal", at: start)
                }
            }
            i += 1
        }
        do { _ = try Regex(pattern) } catch {
            throw self.error("invalid Regex expression: \(error)", at: start)
        }
    }
}
