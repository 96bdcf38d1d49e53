/// A multipart/form-data body (RFC 7578) that is streamed: file parts are read from disk in
/// chunks while the body is written, so a 1 GB upload needs 64 KB of memory, not 1 GB.
public struct MultipartBody: Equatable, Sendable {
    /// One part: a form field or a file.
    public struct Part: Equatable, Sendable {
        /// Where a part's bytes come from.
        public enum Source: Equatable, Sendable {
            /// These bytes.
            case data([UInt8])
            /// The file at this path, read while the body is written.
            case file(String)
            /// A multipart body of its own (curl's `-F 'name=@a,b'`: several files in one
            /// field, a `multipart/mixed` part of attachments); the part's type names its boundary.
            indirect case mixed(MultipartBody)
        }
        /// The form field's name.
        public var name: String
        /// The `filename` of `Content-Disposition` (a file part).
        public var filename: String?
        /// The part's `Content-Type`; nil: none (a field) or guessed from the file name.
        public var contentType: String?
        /// Where the part's bytes come from.
        public var source: Source

        /// A part.
        public init(name: String, filename: String? = nil, contentType: String? = nil, source: Source) {
            self.name = name; self.filename = filename; self.contentType = contentType; self.source = source
        }
    }

    /// The boundary between parts.
    public let boundary: String
    /// The parts, in order.
    public let parts: [Part]
    /// Each part's disposition: `form-data`, or `attachment` in a body the sender gave another
    /// multipart type (curl writes `attachment` under `-H 'Content-Type: multipart/mixed'`).
    public var disposition = "form-data"

    /// A body with a fresh random boundary that none of the in-memory parts contains (file parts
    /// are not read twice: 128 random bits make a collision practically impossible).
    public init(parts: [Part]) {
        var boundary: String
        repeat {
            var rng = SystemRandomNumberGenerator()
            // curl's shape (24 dashes, 16 hex digits), so a body has curl's length for the same parts.
            boundary = String(repeating: "-", count: 24) + String(rng.next() as UInt64, radix: 16).leftPadded(to: 16)
        } while parts.contains { part in
            if case .data(let bytes) = part.source { return Self.contains(bytes, Array(boundary.utf8)) }
            return false
        }
        self.init(parts: parts, boundary: boundary)
    }

    /// A body with a given boundary (for reproducible output in tests).
    public init(parts: [Part], boundary: String) {
        self.parts = parts
        self.boundary = boundary
    }

    /// A body with the caller's boundary, checked: 1 to 70 of RFC 2046's boundary characters,
    /// and in none of the in-memory parts (a boundary that occurs in a part's data ends the
    /// part there, and what follows reads as fields of the sender's choosing).
    /// - Throws: `RequestError.invalid` naming the part.
    public init(checking parts: [Part], boundary: String) throws {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'()+_,-./:=? ".utf8)
        guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy(allowed.contains), boundary.last != " " else {
            throw RequestError.invalid("boundary \"\(PercentDecodingError.printable(Array(boundary.utf8)))\": a multipart boundary is 1 to 70 letters, digits and '()+_,-./:=? (RFC 2046 §5.1.1)")
        }
        for part in parts {
            if case .data(let bytes) = part.source, Self.contains(bytes, Array(boundary.utf8)) {
                throw RequestError.invalid("boundary \"\(boundary)\" occurs in the part \"\(PercentDecodingError.printable(Array(part.name.utf8)))\": a server would end the part there; leave boundary unset for a random one")
            }
        }
        self.init(parts: parts, boundary: boundary)
    }

    /// Refuses a part's type holding CR, LF or NUL (as every header field refuses them): the
    /// type is written as the part's Content-Type line, and a line break would add a header of
    /// the sender's choosing to the part.
    /// - Throws: `RequestError.invalidHeaderValue` naming the part's Content-Type.
    func checkPartTypes() throws {
        for part in parts {
            guard let type = part.contentType else { continue }
            if let i = type.utf8.firstIndex(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                throw RequestError.invalidHeaderValue(name: "Content-Type (part \"\(part.name)\")", byte: type.utf8[i], position: type.utf8.distance(from: type.utf8.startIndex, to: i) + 1)
            }
        }
    }

    /// The `Content-Type` field that goes with the body.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
        return false
    }

    /// A name or filename in a quoted-string: `"` , CR and LF percent-encoded as browsers do (WHATWG).
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return "\"" + out + "\""
    }

    func head(_ part: Part) -> [UInt8] {
        // A part with no name (curl's -F '=…') has no name parameter, as curl writes it.
        var text = "--\(boundary)\r\nContent-Disposition: \(disposition)" + (part.name.isEmpty ? "" : "; name=\(Self.quoted(part.name))")
        if let filename = part.filename {
            if filename.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) {
                text += "; filename=\(Self.quoted(filename))"
            } else {
                // Non-ASCII: the UTF-8 name in filename, as browsers send it (RFC 7578 §4.2), and
                // the same name as RFC 5987's filename* for servers that prefer it (RFC 6266).
                let encoded = PercentEncoder(allowed: .unreserved).encode(filename)
                text += "; filename=\(Self.quoted(filename)); filename*=UTF-8''\(encoded)"
            }
        }
        text += "\r\n"
        if let type = part.contentType ?? (part.filename != nil ? "application/octet-stream" : nil) {
            text += "Content-Type: \(type)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    var tail: [UInt8] { Array("--\(boundary)--\r\n".utf8) }

    /// The body as segments: each part's head, its bytes or file, CRLF; then the closing line.
    public var segments: [BodySegment] {
        var out: [BodySegment] = []
        for part in parts {
            switch part.source {
            case .data(let bytes): out.append(.bytes(head(part) + bytes + [0x0D, 0x0A]))
            case .file(let path): out += [.bytes(head(part)), .file(path), .bytes([0x0D, 0x0A])]
            case .mixed(let inner): out += [.bytes(head(part))] + inner.segments + [.bytes([0x0D, 0x0A])]
            }
        }
        return out + [.bytes(tail)]
    }

    /// The exact body length (file sizes from the file system).
    public func contentLength() throws -> Int { try BodyStream.length(of: segments) }

    /// Writes the body through `sink` in pieces of at most `chunkSize` bytes.
    public func write(chunkSize: Int = 1 << 16, to sink: ([UInt8]) throws -> Void) throws {
        try BodyStream(segments).write(chunkSize: chunkSize, to: sink)
    }

    /// The whole body in memory (for small bodies and rendering).
    public func bytes() throws -> [UInt8] {
        var out: [UInt8] = []
        try write { out += $0 }
        return out
    }
}
