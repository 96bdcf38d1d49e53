/// An error a real server's query parser raises, as the model of that server raises it: the
/// server, its own error class, its message, and where in the query it happened.
public struct QueryServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server as users know it: "Rack", "Go", "Python", "qs".
    public let server: String
    /// The server's error class (`ParameterTypeError`, `ValueError`); empty when it has none.
    public let kind: String
    /// The server's own message.
    public let message: String
    /// The raw parameter the server was reading, when it was reading one.
    public let key: ByteString?
    /// The byte offset of that parameter in the query.
    public let offset: Int?
    /// What the server's program is given beside the error, where it is given both: Go's
    /// `url.ParseQuery` returns the values it could read and its first error. Nil where the
    /// server raises and its program gets nothing (Rack, Python's strict parsing, qs).
    public var valuesRead: PekitValue?

    /// An error of `server`'s, of the `kind` it names, at `key` and the byte `offset` where known.
    public init(server: String, kind: String, message: String, key: ByteString? = nil, offset: Int? = nil, valuesRead: PekitValue? = nil) {
        self.server = server
        self.kind = kind
        self.message = message
        self.key = key
        self.offset = offset
        self.valuesRead = valuesRead
    }

    public var description: String {
        var text = kind.isEmpty ? "\(server): \(message)" : "\(server) \(kind): \(message)"
        if let key, let offset {
            text += " (parameter \(Self.shown(key)) at byte \(offset))"
        } else if let offset {
            text += " (at byte \(offset))"
        }
        return text
    }

    /// A parameter as a message quotes it: a long one cut after 60 bytes (on a character
    /// boundary), with its length, so that an error about a huge key stays readable.
    static func shown(_ key: ByteString) -> String {
        guard key.count > 80 else { return "\"\(key)\"" }
        var end = 60
        while end > 0, key.bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return "\"\(ByteString(Array(key.bytes[..<end])))…\" of \(key.count) bytes"
    }
}
