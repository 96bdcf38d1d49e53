/// The named sets every policy and command starts from.
///
/// The Foundation sets are Apple's documented `CharacterSet.url…Allowed` sets (ASCII part);
/// `afnetworking` is AFNetworking's `AFPercentEscapedStringFromString` set.
extension AllowedSet {
    /// RFC 3986 §2.3 unreserved: `A-Z a-z 0-9 - . _ ~`.
    public static let unreserved = AllowedSet(ascii: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// ASCII letters `A-Z a-z`.
    public static let letters = AllowedSet(ascii: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    /// ASCII letters and digits.
    public static let alphanumerics = letters + AllowedSet(ascii: "0123456789")
    /// Foundation's `urlQueryAllowed`: alphanumerics and `!$&'()*+,-./:;=?@_~`.
    public static let query = alphanumerics + AllowedSet(ascii: "!$&'()*+,-./:;=?@_~")
    /// Foundation's `urlFragmentAllowed` (the same bytes as `query`).
    public static let fragment = alphanumerics + AllowedSet(ascii: "!$&'()*+,-./:;=?@_~")
    /// Foundation's `urlPathAllowed` on Apple platforms: alphanumerics and `!$&'()*+,-./:=@_~`.
    /// (swift-corelibs-foundation on Linux leaves out `:`; pekit follows Apple's documentation.)
    public static let path = alphanumerics + AllowedSet(ascii: "!$&'()*+,-./:=@_~")
    /// Foundation's `urlHostAllowed` on Apple platforms: alphanumerics and `!$&'()*+,-.:;=[]_~`.
    /// (swift-corelibs-foundation on Linux leaves out `:`, `[` and `]`; pekit follows Apple's documentation.)
    public static let host = alphanumerics + AllowedSet(ascii: "!$&'()*+,-.:;=[]_~")
    /// Foundation's `urlUserAllowed`: alphanumerics and `!$&'()*+,-.;=_~`.
    public static let user = alphanumerics + AllowedSet(ascii: "!$&'()*+,-.;=_~")
    /// Foundation's `urlPasswordAllowed` (the same bytes as `user`).
    public static let password = alphanumerics + AllowedSet(ascii: "!$&'()*+,-.;=_~")
    /// AFNetworking's query escaping: `query` minus the general delimiters `:#[]@` and the
    /// sub-delimiters `!$&'()*+,;=`, so `?` and `/` stay as they are (RFC 3986 §3.4).
    public static let afnetworking = query - AllowedSet(ascii: ":#[]@!$&'()*+,;=")
    /// WHATWG application/x-www-form-urlencoded: alphanumerics and `*-._` (space is written `+`).
    public static let form = alphanumerics + AllowedSet(ascii: "*-._")

    /// Preset names in the order help text lists them.
    public static let presetNames = ["unreserved", "query", "path", "fragment", "host", "user", "password",
                                     "letters", "alphanumerics", "afnetworking", "form"]

    /// The preset called `name`, or nil.
    public static func preset(named name: String) -> AllowedSet? {
        switch name {
        case "unreserved", "rfc3986": return .unreserved
        case "query": return .query
        case "path": return .path
        case "fragment": return .fragment
        case "host": return .host
        case "user": return .user
        case "password": return .password
        case "letters": return .letters
        case "alphanumerics": return .alphanumerics
        case "afnetworking": return .afnetworking
        case "form": return .form
        default: return nil
        }
    }

    /// The preset called `name`.
    /// - Throws: `AllowedSetError.unknownPreset` listing the known names.
    public static func named(_ name: String) throws -> AllowedSet {
        guard let set = preset(named: name) else { throw AllowedSetError.unknownPreset(name) }
        return set
    }
}
