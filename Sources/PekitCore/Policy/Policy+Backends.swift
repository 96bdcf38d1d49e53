/// The backends' policies as Swift presets: the rules of the shipped plugin of the same name
/// (`plugins/<name>.lua`), so a Swift caller with no Lua gets the bytes a script gets. Each is
/// checked against its plugin field by field, and both against the real implementation's output
/// (`Tests/PekitLuaTests/Fixtures/query-vectors.json`, made by `make_query_vectors.py`).
extension Policy {
    /// Alamofire 5's `URLEncoding` defaults: sorted keys, `a[]` and `a[b]`, booleans as 1/0,
    /// `NSNull` as `<null>`, AFNetworking's escaping, and Alamofire's `HTTPHeaders.default`.
    public static let alamofire: Policy = {
        var policy = afnetworking
        policy.name = "alamofire"
        policy.description = "Alamofire 5 URLEncoding defaults: sorted keys, a[]/a[b], booleans as 1/0, null as <null>, AFNetworking's escaping"
        policy.null = .text("<null>")
        policy.acceptLanguage = .alamofire
        policy.requestHeaders = [("Accept-Encoding", "br;q=1.0, gzip;q=0.9, deflate;q=0.8")]
        return policy
    }()

    /// Alamofire 5's `URLEncodedFormEncoder()` defaults: encoded pairs sorted at every level
    /// (`alphabetizeKeyValuePairs`), nil dropped, numbers as Swift writes them.
    public static let alamofireForm: Policy = {
        var policy = alamofire
        policy.name = "alamofire-form"
        policy.description = "Alamofire 5 URLEncodedFormEncoder defaults: encoded pairs sorted at every level, a[]/a[b], booleans as 1/0, nil dropped, Swift's numbers"
        policy.order = .pairs
        policy.null = .skip
        policy.numbers = .swift
        return policy
    }()

    /// PHP 8.2's `http_build_query`: `a[0]`, `a[b]`, `urlencode` (space as `+`, `~` escaped),
    /// nulls skipped, `true` as 1, floats at PHP's precision of 14.
    public static let php: Policy = {
        var policy = Policy(
            name: "php", description: "PHP 8.2 http_build_query: a[0]=x, a[b]=x, urlencode (space as +, ~ escaped), nulls skipped, true as 1",
            allowed: .alphanumerics + AllowedSet(ascii: "-_."), space: .plus, order: .given, arrays: .indices,
            null: .skip, booleans: .numeric)
        policy.numbers = .php
        return policy
    }()

    /// Rack 2.2's `build_nested_query` (Rails): `a[]`, `a[b]` with the brackets literal, space
    /// as `+`, nil as the key alone.
    public static let rack = Policy(
        name: "rack", description: "Rack 2.2 build_nested_query (Rails): a[]=x, a[b]=x, brackets literal, space as +, nil as key alone",
        allowed: .form, space: .plus, order: .given, null: .key, encodeKeys: .segments)

    /// qs 6.11's `qs.stringify` defaults: `a[0]` indices, `a[b]`, RFC 3986 escaping, order kept.
    public static let qs: Policy = {
        var policy = Policy(
            name: "qs", description: "qs 6.11 qs.stringify defaults: a[0]=x indices, a[b]=x, RFC 3986 escaping, order kept",
            order: .given, arrays: .indices)
        policy.numbers = .javascript
        return policy
    }()

    /// `qs.stringify` with `arrayFormat: 'brackets'`.
    public static let qsBrackets = qs.variant("qs-brackets", "qs 6.11 qs.stringify with arrayFormat 'brackets'") { $0.arrays = .brackets }

    /// `qs.stringify` with `arrayFormat: 'comma'` (the joining comma escaped too).
    public static let qsComma = qs.variant("qs-comma", "qs 6.11 qs.stringify with arrayFormat 'comma'") { $0.arrays = .comma }

    /// `qs.stringify` with `arrayFormat: 'comma'` and `encodeValuesOnly`: keys left as they are,
    /// commas raw.
    public static let qsCommaValues = qsComma.variant(
        "qs-comma-values", "qs 6.11 qs.stringify with arrayFormat 'comma' and encodeValuesOnly: keys unencoded, commas raw") { $0.encodeKeys = .none }

    /// `qs.stringify` with `arrayFormat: 'repeat'`.
    public static let qsRepeat = qs.variant("qs-repeat", "qs 6.11 qs.stringify with arrayFormat 'repeat'") { $0.arrays = .repeat }

    /// jQuery 1.x and 2.x `jQuery.param`: `a[]`, and `a[0][b]` for an element that is itself
    /// nested; `encodeURIComponent` with `+` for a space.
    public static let jquery1: Policy = {
        var policy = Policy(
            name: "jquery1", description: "jQuery 1.x/2.x jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent with + for space",
            allowed: .alphanumerics + AllowedSet(ascii: "-_.!~*'()"), space: .plus, order: .given,
            arrays: .indicesWhenNested)
        policy.numbers = .javascript
        return policy
    }()

    /// jQuery 3's `jQuery.param`: jQuery 1's rules with a space as `%20`.
    public static let jquery = jquery1.variant(
        "jquery", "jQuery 3 jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent (space as %20)") { $0.space = .percent }

    /// requests (`urlencode` with `doseq=True`): `quote_plus`, lists as repeated keys, None
    /// skipped, `True`/`False`, numbers as Python's `str()`.
    public static let pythonRequests: Policy = {
        var policy = Policy(
            name: "python-requests", description: "requests (urlencode doseq=True): quote_plus, lists as repeated keys, None skipped, True/False",
            space: .plus, order: .given, arrays: .repeat, null: .skip, booleans: .capitalized)
        policy.numbers = .python
        return policy
    }()

    /// Go 1.19's `url.Values.Encode`: keys sorted, `url.QueryEscape` (space as `+`), lists as
    /// repeated keys.
    public static let go = Policy(
        name: "go", description: "Go 1.19 url.Values.Encode: keys sorted, url.QueryEscape (space as +), lists as repeated keys",
        space: .plus, arrays: .repeat)

    /// node's `querystring.stringify`: `encodeURIComponent` (space as `%20`), lists as repeated
    /// keys, null as `a=`.
    public static let nodeQuerystring: Policy = {
        var policy = Policy(
            name: "node-querystring", description: "node querystring.stringify: encodeURIComponent (space as %20), lists as repeated keys, null as a=",
            allowed: .alphanumerics + AllowedSet(ascii: "-_.!~*'()"), order: .given, arrays: .repeat)
        policy.numbers = .javascript
        return policy
    }()

    /// This policy renamed and changed by `change`, as a plugin that `extends` it is.
    func variant(_ name: String, _ description: String, _ change: (inout Policy) -> Void) -> Policy {
        var policy = self
        policy.name = name
        policy.description = description
        change(&policy)
        return policy
    }
}
