/// A backend's encoding rules: how one component is percent-encoded, and how nested parameters
/// are flattened into `key=value` pairs. Every field has a sane default.
///
/// Shaped like Alamofire's encodings: each rule is an enum of presets plus a `custom` case holding
/// a closure (which the Lua host makes from a plugin's Lua function).
public struct Policy: Sendable {
    /// Key order of the flattened pairs.
    public enum Order: Sendable {
        /// Compare keys as strings at every level (AFNetworking).
        case ascending
        /// Byte order of the encoded key, then of the encoded value (AWS SigV4, OAuth 1.0).
        case bytes
        /// Alamofire's URLEncodedFormEncoder: at every level, a map's entries and an array's items
        /// sorted by the bytes of the encoded pairs each writes (`a%5B%5D=1&a%5B%5D=10&a%5B%5D=2`).
        case pairs
        /// Keep the order of ordered maps and pair lists; plain maps fall back to `ascending`.
        case given
        /// `areInIncreasingOrder(a, b)` on the unencoded keys.
        case custom(@Sendable (ByteString, ByteString) throws -> Bool)
    }

    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `a[]=1&a[]=2`.
        case brackets
        /// `a[0]=1&a[1]=2`.
        case indices
        /// `a=1&a=2`.
        case `repeat`
        /// `a=1,2` (elements that are themselves nested take `a[0]`).
        case comma
        /// `a[]=1` for a plain element, `a[0][b]=1` for one that is itself an array, set or map
        /// (jQuery.param's `buildParams`).
        case indicesWhenNested
        /// `(key, index, nested) -> key` with a 0-based index; `nested` says whether the element
        /// is itself an array, set or map (jQuery.param writes `a[0][b]` for those, `a[]` otherwise).
        case custom(@Sendable (ByteString, Int, Bool) throws -> ByteString)
    }

    /// How nested map keys are written.
    public enum ObjectEncoding: Sendable {
        /// `a[b]=1`.
        case brackets
        /// `a.b=1`.
        case dots
        /// `(prefix, key) -> key`.
        case custom(@Sendable (ByteString, ByteString) throws -> ByteString)
    }

    /// How a null value is written.
    public enum NullEncoding: Sendable, Equatable {
        /// The key alone, `a` (AFNetworking).
        case key
        /// `a=`.
        case empty
        /// Left out.
        case skip
        /// The value written as this text, encoded as any value is (Alamofire's URLEncoding
        /// writes NSNull's description: `a=%3Cnull%3E`).
        case text(String)
    }

    /// How booleans are written.
    public enum BooleanEncoding: String, Sendable, CaseIterable {
        /// `true` / `false`.
        case literal
        /// `1` / `0`.
        case numeric
        /// `True` / `False` (Python's `str`, as requests sends them).
        case capitalized
    }

    /// Whether and how keys or values are percent-encoded.
    public enum ComponentEncoding: Sendable, Equatable {
        /// With the policy's `allowed` set.
        case policy
        /// Left as they are.
        case none
        /// With an allowed set of its own (e.g. keep `[` `]` literal in keys).
        case allowed(AllowedSet)
        /// Keys only: each key segment encoded with the policy's set while the structure between
        /// them (`[`, `]`, `.`) stays literal, as Rack's `build_nested_query` writes `k%5B%5D[x]`
        /// for the key `k[]` holding `{x = …}`.
        case segments
    }

    /// How empty arrays and maps are written.
    public enum EmptyEncoding: String, Sendable, CaseIterable {
        /// Left out.
        case skip
        /// A bare `key=`.
        case key
    }

    /// The policy's name (`php`), as plugins, messages and `builtins` know it.
    public var name: String
    public var description: String
    /// Bytes that are not escaped.
    public var allowed: AllowedSet
    /// How a space is written.
    public var space: PercentEncoder.Space
    /// Hex digit case in escapes.
    public var hexCase: PercentEncoder.HexCase
    /// The key order of the flattened pairs.
    public var order: Order
    /// How array elements are keyed.
    public var arrays: ArrayEncoding
    /// How nested map keys are written.
    public var objects: ObjectEncoding
    /// How a null is written.
    public var null: NullEncoding
    /// How booleans are written.
    public var booleans: BooleanEncoding
    /// How numbers are written: as the backend's client language writes them.
    public var numbers: NumberStyle = .shortest
    /// Whether and how keys are percent-encoded.
    public var encodeKeys: ComponentEncoding
    /// Whether and how values are percent-encoded.
    public var encodeValues: ComponentEncoding
    /// Between pairs (`&`).
    public var separator: ByteString
    /// Between key and value (`=`).
    public var assign: ByteString
    /// How empty arrays and maps are written.
    public var empty: EmptyEncoding
    /// Written before a non-empty query (`?` or nothing).
    public var prefix: ByteString
    /// Request defaults a backend's policy may carry: headers added to every request built with
    /// it, and where parameters go ("query", "body", or nil for the method's default).
    public var requestHeaders: [(name: String, value: String)] = []
    /// The `Accept-Language` a backend's client library sends (AFNetworking's and Alamofire's,
    /// from the locale); nil: none, as curl sends none.
    public var acceptLanguage: AcceptLanguage?
    /// Where a request builder puts the parameters: "query", "body", or nil for the method's default.
    public var paramsIn: String?
    /// Methods whose parameters go into the query (nil: GET, HEAD, DELETE).
    public var methodsInQuery: Set<String>?

    /// A policy; every parameter has the default of the `rfc3986` policy.
    public init(name: String = "custom", description: String = "", allowed: AllowedSet = .unreserved,
                space: PercentEncoder.Space = .percent, hexCase: PercentEncoder.HexCase = .upper,
                order: Order = .ascending, arrays: ArrayEncoding = .brackets, objects: ObjectEncoding = .brackets,
                null: NullEncoding = .empty, booleans: BooleanEncoding = .literal,
                encodeKeys: ComponentEncoding = .policy, encodeValues: ComponentEncoding = .policy,
                separator: ByteString = "&", assign: ByteString = "=", empty: EmptyEncoding = .skip,
                prefix: ByteString = "") {
        self.name = name; self.description = description; self.allowed = allowed; self.space = space
        self.hexCase = hexCase; self.order = order; self.arrays = arrays; self.objects = objects
        self.null = null; self.booleans = booleans; self.encodeKeys = encodeKeys; self.encodeValues = encodeValues
        self.separator = separator; self.assign = assign; self.empty = empty; self.prefix = prefix
    }

    /// The encoder for one component under this policy.
    public var encoder: PercentEncoder { PercentEncoder(allowed: allowed, space: space, hexCase: hexCase) }

    /// The encoder for keys or values, or nil when they are left as they are.
    public func encoder(for component: ComponentEncoding) -> PercentEncoder? {
        switch component {
        case .policy: return encoder
        case .none, .segments: return nil
        case .allowed(let set): return PercentEncoder(allowed: set, space: space, hexCase: hexCase)
        }
    }
}
