/// The policies pekit knows without any plugin. The Lua plugins of the same names in `plugins/`
/// describe the same rules (a test checks that they agree), so a pure-Swift caller and a script
/// get the same bytes.
extension Policy {
    /// RFC 3986: unreserved bytes only, `%20`, sorted keys, `a[]` and `a[b]`, null as `a=`. The default.
    public static let rfc3986 = Policy(name: "rfc3986", description: "RFC 3986 section 2.3: only unreserved characters are left unescaped; space as %20")

    /// AFNetworking's `AFQueryStringPairsFromDictionary` and `AFPercentEscapedStringFromString`.
    /// Its requests carry AFHTTPRequestSerializer's `Accept-Language`, from the locale.
    public static let afnetworking: Policy = {
        var policy = Policy(
            name: "afnetworking", description: "AFNetworking 3/4 AFQueryStringFromParameters: query-allowed minus :#[]@!$&'()*+,;= (so / and ? stay), sorted keys, a[]/a[b], null as key alone",
            allowed: .afnetworking, null: .key, booleans: .numeric)
        policy.acceptLanguage = .afnetworking
        policy.numbers = .objc
        return policy
    }()

    /// Foundation's `URLComponents.queryItems`: urlQueryAllowed minus `&` and `=`, order kept.
    public static let foundationQuery = Policy(
        name: "foundation-query", description: "Foundation URLComponents.queryItems (Apple and swift-corelibs-foundation): urlQueryAllowed minus & and =; '+' is left as it is",
        allowed: .query - AllowedSet(ascii: "&="), order: .given, arrays: .repeat, null: .key)

    /// WHATWG application/x-www-form-urlencoded (`URLSearchParams`, HTML forms).
    public static let form = Policy(
        name: "form", description: "WHATWG URL Standard application/x-www-form-urlencoded (URLSearchParams): *-._ and alphanumerics, space as +",
        allowed: .form, space: .plus, order: .given, arrays: .repeat)

    /// OAuth 1.0 signature base string parameters (RFC 5849 §3.6, §3.4.1.3.2).
    public static let oauth1 = Policy(
        name: "oauth1", description: "OAuth 1.0 (RFC 5849 section 3.6): unreserved only, %20, pairs sorted by encoded name then value",
        order: .bytes, arrays: .repeat)

    /// AWS Signature Version 4 canonical query string.
    public static let awsSigV4 = Policy(
        name: "aws-sigv4", description: "AWS Signature V4 canonical query string (as botocore signs it): unreserved only, %20, sorted by encoded key then value",
        order: .bytes, arrays: .repeat)

    /// The built-in policies by name.
    public static let builtins: [String: Policy] = Dictionary(uniqueKeysWithValues: [
        rfc3986, afnetworking, foundationQuery, form, oauth1, awsSigV4,
        alamofire, alamofireForm, php, rack, qs, qsBrackets, qsComma, qsCommaValues, qsRepeat,
        jquery, jquery1, pythonRequests, go, nodeQuerystring,
    ].map { ($0.name, $0) })
}
