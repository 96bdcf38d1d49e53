/// A URL as curl reads one from its command line: curl's own URL API (`urlapi.c`, 7.88), not the
/// URL Standard that `WHATWGURL` and `pekit.url` follow. `pekit request` and `pekit import curl`
/// read their URL this way (`RequestBuilder.readsURLAsCurl`), so that they send what curl sends;
/// where the two parsers part, this is the side curl takes (its tests 214, 663, 1143, 1150,
/// 1231, 1318, 1476):
///
/// - one to three slashes after `http:` are read as two (`http:/h/x`, `http:///h/x`); four or
///   more are malformed;
/// - `.` and `..` segments of the path are removed (RFC 3986 §5.2.4), unless kept (curl's
///   `--path-as-is`); the query keeps its own;
/// - the host keeps the case it was written in (it goes so in `Host:`); a name whose last label
///   is a number (`example.com.1150`) is a name, where the Standard reads an IPv4 address;
/// - the path and the query go as written, `"<>\^`{|}` included, but for a space (`%20`: curl
///   refuses the URL, pekit sends it escaped) and, in the path only, bytes past ASCII
///   (`%c3%a9`, lower-case hex as curl writes them; the query sends them raw, as curl does).
public enum CurlURL {
    /// A URL curl refuses (its `CURLE_URL_MALFORMAT`).
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        /// The URL as given.
        public let url: String
        /// Why curl refuses it.
        public let reason: String
        /// The URL shown escaped, with the reason.
        public var description: String { "invalid URL \"\(PercentDecodingError.printable(Array(url.utf8)))\": \(reason)" }
    }

    /// The URL with `scheme://` (the slashes curl takes read as two) and its path without dot
    /// segments (unless `keepingDotSegments`); nothing else changes. A URL without `scheme:/` is
    /// returned as it is.
    /// - Throws: `Malformed` for four slashes or more after an http(s) scheme.
    /// - Complexity: O(n) in the URL's length.
    public static func read(_ url: String, keepingDotSegments: Bool) throws -> String {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return url }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { return url }
        var slashes = 0
        while colon + 1 + slashes < bytes.count, bytes[colon + 1 + slashes] == 0x2F { slashes += 1 }
        guard slashes >= 1 else { return url }
        guard slashes <= 3 else { throw Malformed(url: url, reason: "\(slashes) slashes after '\(scheme):' (curl takes one to three)") }
        let start = colon + 1 + slashes
        let authorityEnd = bytes[start...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
        let pathEnd = bytes[authorityEnd...].firstIndex { $0 == 0x3F || $0 == 0x23 } ?? bytes.count
        var path = String(decoding: bytes[authorityEnd..<pathEnd], as: UTF8.self)
        if !keepingDotSegments { path = URLResolution.removeDotSegments(path) }
        return String(decoding: bytes[..<colon], as: UTF8.self) + "://" + String(decoding: bytes[start..<authorityEnd], as: UTF8.self)
            + path + String(decoding: bytes[pathEnd...], as: UTF8.self)
    }

    /// Whether curl takes `host` as a host name as written (its `hostname_check`): printable
    /// ASCII without any of ` /:#?!@{}[]\$'"^`*<>=;,+&()%`. Such a name the URL Standard may
    /// refuse (a last label that is a number) is still a name to curl.
    public static func isName(_ host: some Collection<UInt8>) -> Bool {
        !host.isEmpty && host.allSatisfy { $0 > 0x20 && $0 < 0x7F && !refusedInName.contains($0) }
    }

    private static let refusedInName = PercentEncodeSet(adding: Array(" /:#?!@{}[]\\$'\"^`*<>=;,+&()%".utf8))

    /// Whether curl writes `b` escaped in the path (a space; a byte past ASCII) or, `inQuery`,
    /// in the query (a space only).
    @inline(__always) static func escapes(_ b: UInt8, inQuery: Bool) -> Bool { b == 0x20 || (!inQuery && b >= 0x80) }

    /// Appends `b` as curl writes it in the path or the query: `%xx` in lower-case hex where
    /// `escapes` says so.
    @inline(__always) static func append(_ b: UInt8, inQuery: Bool, to out: inout [UInt8]) {
        guard escapes(b, inQuery: inQuery) else { out.append(b); return }
        func hex(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x57 + n }
        out += [0x25, hex(b >> 4), hex(b & 15)]
    }
}
