/// One flattened parameter before percent-encoding: `key=value`, or the key alone.
public struct QueryPair: Equatable, Sendable {
    /// The composed key (`a[b][]`), unencoded.
    public var key: ByteString
    /// nil for a key written alone (a null under `null = "key"`).
    public var value: ByteString?
    /// For `arrays = "comma"`: the elements, encoded one by one and joined by a comma.
    public var commaParts: [ByteString]?

    /// A pair; `value` nil writes the key alone.
    public init(key: ByteString, value: ByteString?, commaParts: [ByteString]? = nil) {
        self.key = key
        self.value = value
        self.commaParts = commaParts
    }
}

/// Why parameters could not be flattened or parsed; the message names the key path.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    public let description: String
    /// An error with this message.
    public init(_ description: String) { self.description = description }
}
