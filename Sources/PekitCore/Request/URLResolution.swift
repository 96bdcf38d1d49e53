/// RFC 3986 §5: relative references resolved against a base, and query strings appended, all
/// on the text as written (nothing is re-encoded, so what a policy produced stays byte for byte).
public enum URLResolution {
    /// Resolves `reference` against `base` by RFC 3986 §5.2, as curl, browsers and Python's
    /// `urljoin` do: a relative path replaces the base's last segment (`c` from `/a/b` is `/a/c`),
    /// and dot segments are removed, from an absolute reference's path too (`http://h/x/../d` is
    /// `http://h/d`) unless `keepingDotSegments` (curl's `--path-as-is`).
    /// - Parameters:
    ///   - reference: a URL or a relative reference, as written (nothing is re-encoded).
    ///   - base: the URL it is relative to.
    ///   - baseIsDirectory: AFNetworking's rule for a base URL (`relativeToURL:`, pekit's
    ///     `--base`), and only for that: a base path that does not end in '/' gets one first, so
    ///     "users" against ".../v1" is ".../v1/users". A redirect never uses it.
    ///   - keepingDotSegments: keep `.` and `..` segments as written (curl's `--path-as-is`).
    public static func resolve(_ reference: String, against base: String, baseIsDirectory: Bool = false, keepingDotSegments: Bool = false) -> String {
        let tidy = { (path: String) in keepingDotSegments ? path : removeDotSegments(path) }
        if hasScheme(reference) {
            var absolute = split(reference)
            // Only a hierarchical path (after an authority) has segments to tidy.
            if absolute.authority != nil { absolute.path = tidy(absolute.path) }
            return join(absolute)
        }
        var base = split(base)
        if baseIsDirectory && !base.path.hasSuffix("/") { base.path += "/" }
        let ref = split(reference)
        var result = base
        result.fragment = ref.fragment
        if let authority = ref.authority {
            result.authority = authority
            result.path = tidy(ref.path)
            result.query = ref.query
        } else if ref.path.isEmpty {
            result.query = ref.query ?? base.query
        } else {
            if ref.path.hasPrefix("/") {
                result.path = tidy(ref.path)
            } else if keepingDotSegments {
                result.path = curlMerged(ref.path, base: base.path)
            } else {
                // §5.2.3: the base path up to its last "/" (none: the reference alone), then the reference.
                let merged: String
                if base.authority != nil && base.path.isEmpty { merged = "/" + ref.path }
                else if let slash = base.path.lastIndex(of: "/") { merged = String(base.path[...slash]) + ref.path }
                else { merged = ref.path }
                result.path = tidy(merged)
            }
            result.query = ref.query
        }
        return join(result)
    }

    /// A relative path against a base path as curl's `concat_url` merges them when dot segments
    /// are kept (`--path-as-is`): the base without its last segment, one level less for each
    /// leading `../` of the reference (after one leading `./`), then the reference's rest
    /// (`../x` from `/../../391` is `/../x`: curl's test 391).
    static func curlMerged(_ reference: String, base: String) -> String {
        var directory = Substring(base)
        if let slash = directory.lastIndex(of: "/") { directory = directory[..<slash] } else { directory = "" }
        var rest = Substring(reference)
        if rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        var levels = 0
        while rest.hasPrefix("../") { rest = rest.dropFirst(3); levels += 1 }
        for _ in 0..<levels {
            guard let slash = directory.lastIndex(of: "/") else { directory = ""; break }
            directory = directory[..<slash]
        }
        return directory + "/" + rest
    }

    /// Appends an encoded query: after '&' when the URL has one, after '?' otherwise; an empty
    /// query adds nothing (no lone '?'). A fragment stays at the end.
    public static func appendQuery(_ query: String, to url: String) -> String {
        guard !query.isEmpty else { return url }
        var head = Substring(url), fragment = ""
        if let hash = url.firstIndex(of: "#") { head = url[..<hash]; fragment = String(url[hash...]) }
        if let q = head.firstIndex(of: "?") {
            let existing = head[head.index(after: q)...]
            let joiner = existing.isEmpty || existing.hasSuffix("&") ? "" : "&"
            return head + joiner + query + fragment
        }
        return head + "?" + query + fragment
    }

    struct Parts { var scheme: String?; var authority: String?; var path: String; var query: String?; var fragment: String? }

    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
        let scheme = s[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    static func split(_ s: String) -> Parts {
        var rest = Substring(s)
        var parts = Parts(scheme: nil, authority: nil, path: "", query: nil, fragment: nil)
        if let hash = rest.firstIndex(of: "#") { parts.fragment = String(rest[rest.index(after: hash)...]); rest = rest[..<hash] }
        if let q = rest.firstIndex(of: "?") { parts.query = String(rest[rest.index(after: q)...]); rest = rest[..<q] }
        if hasScheme(String(rest)), let colon = rest.firstIndex(of: ":") { parts.scheme = String(rest[..<colon]); rest = rest[rest.index(after: colon)...] }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            parts.authority = String(rest[..<end])
            rest = rest[end...]
        }
        parts.path = String(rest)
        return parts
    }

    static func join(_ p: Parts) -> String {
        var s = ""
        if let scheme = p.scheme { s += scheme + ":" }
        if let authority = p.authority { s += "//" + authority }
        s += p.path
        if let query = p.query { s += "?" + query }
        if let fragment = p.fragment { s += "#" + fragment }
        return s
    }

    /// RFC 3986 §5.2.4.
    public static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") { input = input.dropFirst(3); if !output.isEmpty { output.removeLast() } }
            else if input == "/.." { input = "/"; if !output.isEmpty { output.removeLast() } }
            else if input == "." || input == ".." { input = "" }
            else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
