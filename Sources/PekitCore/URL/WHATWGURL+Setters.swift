/// The URL Standard's setters (§6.1, the `URL` class): each parses its value with the basic URL
/// parser from the component's own state, so `url.host = "example.com:8080"` sets the port too,
/// and a value the component cannot take leaves the URL as it was (as browsers do, without an
/// error), except `href`, which throws. Each returns whether the value was taken (false: the URL
/// is as it was), which a browser's setter does not tell.
extension WHATWGURL {
    /// Whether there is a user name or password.
    public var includesCredentials: Bool { spans.usernameStart != spans.hostStart }

    /// A URL without a host (or with the empty host), or a file URL, has no credentials or port.
    public var cannotHaveCredentialsOrPort: Bool { spans.hostKind == .none || spans.hostKind == .empty || scheme == "file" }

    /// Whether the URL has an opaque path (`mailto:a@b`), which no setter changes.
    public var hasOpaquePath: Bool { spans.hasOpaquePath }

    /// Replaces the whole URL. - Throws: `ParseError` when `value` is not a URL.
    public mutating func setHref(_ value: String) throws { self = try WHATWGURL(value) }

    /// `http`, `https:` or `https:anything` (what follows `:` is ignored); the special/non-special
    /// line is not crossed.
    @discardableResult public mutating func setProtocol(_ value: String) -> Bool {
        let before = href
        reparse(value + ":", from: .schemeStart)
        return href != before || scheme == value.prefix { $0 != ":" }.lowercased()
    }

    /// The `username` setter (§6.1): returns false, changing nothing, for a URL that cannot have credentials.
    @discardableResult public mutating func setUsername(_ value: String) -> Bool {
        guard !cannotHaveCredentialsOrPort else { return false }
        username = PercentEncodeSet.userinfo.encode(value.unicodeScalars)
        return true
    }

    /// The `password` setter: returns false, changing nothing, for a URL that cannot have credentials.
    @discardableResult public mutating func setPassword(_ value: String) -> Bool {
        guard !cannotHaveCredentialsOrPort else { return false }
        password = PercentEncodeSet.userinfo.encode(value.unicodeScalars)
        return true
    }

    /// The host and, after a `:`, the port.
    @discardableResult public mutating func setHost(_ value: String) -> Bool {
        guard !hasOpaquePath else { return false }
        return reparse(value, from: .host)
    }

    /// The host only: a value with a port is refused.
    @discardableResult public mutating func setHostname(_ value: String) -> Bool {
        guard !hasOpaquePath else { return false }
        return reparse(value, from: .init(state: .host, hostnameOnly: true))
    }

    /// Digits up to the first other character; `""` removes the port. False (the URL as it was)
    /// for a value that starts with no digit (`"not-a-port"`), a port over 65535, or a URL that
    /// can have no port.
    @discardableResult public mutating func setPort(_ value: String) -> Bool {
        guard !cannotHaveCredentialsOrPort else { return false }
        if value.isEmpty { port = nil; return true }
        // (Tabs and newlines are dropped first, as the parser drops them.)
        guard let first = value.utf8.first(where: { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }), (0x30...0x39).contains(first) else { return false }
        return reparse(value, from: .port)
    }

    /// The `pathname` setter: returns false, changing nothing, for a URL with an opaque path.
    @discardableResult public mutating func setPathname(_ value: String) -> Bool {
        guard !hasOpaquePath else { return false }
        return reparse(value, from: .pathStart) { $0.path = .segments([]) }
    }

    /// With or without the leading `?`; `""` removes the query.
    public mutating func setSearch(_ value: String) {
        guard !value.isEmpty else { change { $0.query = nil }; return }
        reparse(value.hasPrefix("?") ? String(value.dropFirst()) : value, from: .query) { $0.query = "" }
    }

    /// With or without the leading `#`; `""` removes the fragment.
    public mutating func setHash(_ value: String) {
        guard !value.isEmpty else { change { $0.fragment = nil }; return }
        reparse(value.hasPrefix("#") ? String(value.dropFirst()) : value, from: .fragment) { $0.fragment = "" }
    }

    /// Sets a component by its `URL` attribute name (`"pathname"`); false for an unknown name.
    /// - Throws: `ParseError` for an `href` that is not a URL.
    public mutating func set(_ component: String, to value: String) throws -> Bool {
        switch component {
        case "href": try setHref(value)
        case "protocol": setProtocol(value)
        case "username": setUsername(value)
        case "password": setPassword(value)
        case "host": setHost(value)
        case "hostname": setHostname(value)
        case "port": setPort(value)
        case "pathname": setPathname(value)
        case "search": setSearch(value)
        case "hash": setHash(value)
        default: return false
        }
        return true
    }

    /// The names `set(_:to:)` takes, as the `URL` class has them.
    public static let settableComponents = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]

    @discardableResult private mutating func reparse(_ value: String, from override: URLParser.State, after prepare: (inout URLParts) -> Void = { _ in }) -> Bool {
        reparse(value, from: URLParser.Override(state: override), after: prepare)
    }

    /// Parses `value` into the components from the state `override` names, after `prepare`.
    /// - Returns: false when the parse failed (what it had set before failing is kept).
    @discardableResult private mutating func reparse(_ value: String, from override: URLParser.Override, after prepare: (inout URLParts) -> Void = { _ in }) -> Bool {
        var parts = self.parts
        prepare(&parts)
        var parser = URLParser(input: value, url: parts, override: override)
        // A failure keeps what the parser had already set (a host before a bad port), as the
        // Standard's in-place parse does.
        let result = try? parser.run()
        self = WHATWGURL(parts: result ?? parser.url)
        return result != nil
    }
}

extension WHATWGURL {
    /// The query as `URLSearchParams` reads it: name-value pairs in order, repeats kept, read with
    /// the `application/x-www-form-urlencoded` parser (`+` is a space).
    public var queryPairs: [(name: String, value: String)] {
        guard let query else { return [] }
        return WHATWGFormParser().pairs(ByteString(Array(query.utf8))).map { (String(decoding: $0.name.bytes, as: UTF8.self), String(decoding: $0.value.bytes, as: UTF8.self)) }
    }

    /// Replaces the query with `pairs`, serialized as `URLSearchParams` does (no pairs: no query).
    public mutating func setQueryPairs(_ pairs: [(name: String, value: String)]) {
        let text = WHATWGFormParser.serialize(pairs)
        change { $0.query = text.isEmpty ? nil : text }
    }
}
