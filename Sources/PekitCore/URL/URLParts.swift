/// A URL as separate components: what the URL Standard's parser state machine (`URLParser`)
/// and the setters work on. `WHATWGURL` keeps the serialized form instead (one string and the
/// offsets of its components), and makes one of these only to change a component.
struct URLParts: Equatable, Sendable {
    /// The scheme, lower case; setting it also sets `isSpecial` (read at every character while parsing).
    var scheme: String { didSet { isSpecial = WHATWGURL.defaultPort(of: scheme) != nil } }
    var username = ""
    var password = ""
    var host: URLHost?
    var port: Int?
    var path = WHATWGURL.Path.segments([])
    var query: String?
    var fragment: String?
    /// http, https, ws, wss, ftp or file: the schemes with their own parsing rules.
    private(set) var isSpecial = false

    init(scheme: String) { self.scheme = scheme; isSpecial = WHATWGURL.defaultPort(of: scheme) != nil }

    var includesCredentials: Bool { !username.isEmpty || !password.isEmpty }

    /// The URL serializer (§4.5), writing where each component starts and ends into `spans`.
    func serialize(into out: inout [UInt8], _ spans: inout WHATWGURL.Spans) {
        out.reserveCapacity(scheme.utf8.count + username.utf8.count + password.utf8.count + 40 + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0))
        out += scheme.utf8
        spans.schemeEnd = UInt32(out.count)
        spans.hasTupleOrigin = isSpecial && scheme != "file"
        out.append(0x3A)
        if let host {
            out += [0x2F, 0x2F]
            spans.usernameStart = UInt32(out.count)
            out += username.utf8
            spans.usernameEnd = UInt32(out.count)
            if !password.isEmpty { out.append(0x3A); out += password.utf8 }
            spans.passwordEnd = UInt32(out.count)
            if includesCredentials { out.append(0x40) }
            spans.hostStart = UInt32(out.count)
            out += host.description.utf8
            spans.hostEnd = UInt32(out.count)
            spans.hostKind = host.kind
            if let port { out.append(0x3A); out += String(port).utf8 }
            spans.port = Int32(port ?? -1)
        } else {
            let end = UInt32(out.count)
            (spans.usernameStart, spans.usernameEnd, spans.passwordEnd, spans.hostStart, spans.hostEnd) = (end, end, end, end, end)
            spans.hostKind = .none
            spans.port = -1
            // "/." keeps a path that starts with "//" from reading as a host when parsed again.
            if case .segments(let s) = path, s.count > 1, s[0].isEmpty { out += [0x2F, 0x2E] }
        }
        spans.pathStart = UInt32(out.count)
        switch path {
        case .opaque(let p): out += p.utf8; spans.hasOpaquePath = true
        case .segments(let s): for segment in s { out.append(0x2F); out += segment.utf8 }; spans.hasOpaquePath = false
        }
        spans.queryStart = .max
        if let query { spans.queryStart = UInt32(out.count); out.append(0x3F); out += query.utf8 }
        spans.fragmentStart = .max
        if let fragment { spans.fragmentStart = UInt32(out.count); out.append(0x23); out += fragment.utf8 }
    }
}

extension URLHost {
    /// Which case, without its value (what `WHATWGURL.Spans` keeps).
    var kind: WHATWGURL.HostKind {
        switch self {
        case .domain: return .domain
        case .ipv4: return .ipv4
        case .ipv6: return .ipv6
        case .opaque: return .opaque
        case .empty: return .empty
        }
    }
}
