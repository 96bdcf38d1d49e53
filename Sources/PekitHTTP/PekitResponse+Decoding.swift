import PekitCore

extension PekitResponse {
    /// Why a response body could not be read as the type asked for: where in the JSON (an RFC 9535
    /// normalized path, `$['items'][2]['price']`; `$` for the whole body) and what is wrong there.
    public struct DecodingFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The type asked for, as Swift names it.
        public let type: String
        /// Where in the body: an RFC 9535 normalized path (`$` for the whole body).
        public let path: String
        /// What is wrong there.
        public let reason: String
        /// The response's status and URL, which the message names.
        public let status: Int, url: String

        public var description: String {
            "cannot read the body of \(url) (status \(status)) as \(type): at \(path): \(reason)"
        }
    }

    /// The body as JSON, with object key order kept (see `JSONText.parse`).
    /// - Throws: `DecodingFailure` at `$` when the body is empty or not JSON (naming the byte).
    /// - Complexity: O(body length).
    public func json() throws -> PekitValue {
        guard !body.isEmpty else { throw failure(PekitValue.self, path: "$", "the body is empty") }
        do {
            return try JSONText.parse(body)
        } catch let error as JSONText.ParseError {
            throw failure(PekitValue.self, path: "$", "\(error)")
        }
    }

    /// The body read as JSON into `T`, as Alamofire's `serializingDecodable` or `JSONDecoder`
    /// reads it: each value only as its own kind (`"2"` is not an `Int`), a missing or null
    /// value nil for an optional property. An HTTP error status is not checked here: look at
    /// `status` first, or decode the error body into a type of its own.
    /// - Parameter type: the type to read.
    /// - Throws: `DecodingFailure` naming the JSON path that failed (`$['items'][2]['price']:
    ///   expected a number, found a string`) or, at `$`, an empty body or text that is not JSON.
    /// - Complexity: O(body length).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let value: PekitValue
        do { value = try json() } catch let error as DecodingFailure { throw failure(T.self, path: error.path, error.reason) }
        do {
            return try PekitValueDecoder(typed: true).decode(type, from: value)
        } catch let error as DecodingError {
            let (context, reason): (DecodingError.Context, String)
            switch error {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): (context, reason) = (c, c.debugDescription)
            case .keyNotFound(let key, let c):
                (context, reason) = (DecodingError.Context(codingPath: c.codingPath + [key], debugDescription: c.debugDescription), "no such member")
            @unknown default: throw error
            }
            throw failure(T.self, path: Self.normalizedPath(context.codingPath, in: value), reason)
        }
    }

    private func failure<T>(_ type: T.Type, path: String, _ reason: String) -> DecodingFailure {
        DecodingFailure(type: String(describing: type), path: path, reason: reason, status: status, url: url)
    }

    /// A coding path as RFC 9535 §2.7 writes a normalized path: `$`, then `[index]` for an array
    /// position and `['name']` for a member, with `'` and `\` escaped and control characters as
    /// `\uXXXX` (or `\b`, `\f`, `\n`, `\r`, `\t`). Which a step is comes from the JSON walked
    /// along (a member named "2" is `['2']`, an array's third value `[2]`).
    static func normalizedPath(_ path: [any CodingKey], in root: PekitValue) -> String {
        var out = "$"
        var node: PekitValue? = root
        for key in path {
            if case .array(let items)? = node, let index = key.intValue {
                out += "[\(index)]"
                node = items.indices.contains(index) ? items[index] : nil
                continue
            }
            if case .map(let map)? = node { node = map[ByteString(key.stringValue)] } else { node = nil }
            out += "['"
            for scalar in key.stringValue.unicodeScalars {
                switch scalar {
                case "'": out += "\\'"
                case "\\": out += "\\\\"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{00}"..."\u{1F}":
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            out += "']"
        }
        return out
    }
}
