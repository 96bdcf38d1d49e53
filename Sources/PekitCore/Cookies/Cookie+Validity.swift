/// What every cookie must be, wherever it comes from (a response, a file, a script's `jar:set`):
/// checked before it is stored, so that one bad cookie cannot poison a jar for good.
extension Cookie {
    /// The longest a cookie is kept: 400 days from when it is stored. RFC 6265bis §5.5 has user
    /// agents cap Expires and Max-Age so, as browsers do; it also keeps every expiry a number a
    /// file and a date can hold.
    public static let maximumLifetime: Double = 400 * 86400

    /// Why a cookie with this name and value cannot be stored, or nil. Control characters in the
    /// name or value make a user agent ignore the whole Set-Cookie (RFC 6265bis §5.6): sent back,
    /// they would make every later request with the jar an invalid header. A tab is kept in a
    /// value, as the RFC and browsers keep it (cookies.txt's value is the rest of its line); in a
    /// name it is refused, as curl refuses it, since cookies.txt separates the name by tabs.
    /// - Parameter name: the cookie's name.
    /// - Parameter value: its value, as text.
    /// - Parameter limit: the most bytes name and value may have together.
    /// - Parameter valueBytes: the value's own length where it is not UTF-8 (its text is longer).
    public static func problem(name: String, value: String, limit: Int, valueBytes: Int? = nil) -> (CookieRule, String)? {
        func controlByte(_ what: String, _ text: String, tab: Bool) -> String? {
            // Over the string's own bytes (a walk of its UTF-8 view cost 16 instructions a byte).
            var copy = text
            guard let (offset, byte) = copy.withUTF8({ bytes -> (Int, UInt8)? in
                for (i, byte) in bytes.enumerated() where (byte < 0x20 && (byte != 0x09 || !tab)) || byte == 0x7F { return (i + 1, byte) }
                return nil
            }) else { return nil }
            let hex = String(byte, radix: 16, uppercase: true)
            let why = byte == 0x09 ? "a cookies.txt line could not carry it in a name; curl refuses it too" : "ignored, as RFC 6265bis section 5.6 says"
            return "the \(what) holds control byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte \(offset) (\(why))"
        }
        // Two calls, not a loop over an array of both: this runs for every cookie stored.
        if let problem = controlByte("name", name, tab: false) ?? controlByte("value", value, tab: true) { return (.controlCharacter, problem) }
        let size = name.utf8.count + (valueBytes ?? value.utf8.count)
        if size > limit {
            return (.nameValueTooLong, "name and value are \(size) bytes; the limit is \(limit)")
        }
        return nil
    }

    /// The expiry kept when the cookie is stored at `now`: at most `maximumLifetime` ahead.
    /// - Throws: `CookieError.invalidCookie` for an expiry that is not a number (NaN).
    static func keptExpiry(_ expires: Double?, now: Double) throws -> Double? {
        guard let expires else { return nil }
        guard !expires.isNaN else { throw CookieError.invalidCookie("expires is not a number (NaN); give seconds since 1970") }
        return min(expires, now + maximumLifetime)
    }

    /// The cookie name prefixes RFC 6265bis §4.1.3 gives meaning to, matched ASCII
    /// case-insensitively as browsers do (`__SECURE-id` is a `__Secure-` cookie).
    /// `__Secure-`, `__Host-`, `__Http-` and `__Host-Http-` (RFC 6265bis §4.1.3), matched
    /// without case.
    public enum NamePrefix: String, Sendable {
        /// `__Secure-`: set only with Secure, from a secure origin.
        case secure = "__Secure-"
        /// `__Host-`: as `__Secure-`, and host-only with `Path=/`.
        case host = "__Host-"
        /// `__Http-`: as `__Secure-`, and HttpOnly, set only through HTTP.
        case http = "__Http-"
        /// `__Host-Http-`: both `__Host-`'s and `__Http-`'s rules.
        case hostHTTP = "__Host-Http-"
    }

    /// The prefix the name starts with (any case, as RFC 6265bis compares them), if any.
    public var namePrefix: NamePrefix? { Self.namePrefix(name) }

    /// The prefix `name` starts with, if any: compared byte by byte, no lower-cased copy made
    /// (this runs for every cookie stored).
    /// - Parameter matchingCase: as written only (`__Secure-`, not `__secure-`), as curl reads
    ///   a file's cookies.
    static func namePrefix(_ name: String, matchingCase: Bool = false) -> NamePrefix? {
        guard name.utf8.first == 0x5F else { return nil }  // "_"
        var name = name
        return name.withUTF8 { bytes in
            // The words as RFC 6265bis writes them: compared as they are, or without case.
            func starts(_ word: StaticString) -> Bool {
                guard matchingCase else { return ASCII.hasPrefix(bytes, ignoringCase: word) }
                return bytes.starts(with: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            }
            if starts("__Secure-") { return .secure }
            if starts("__Host-Http-") { return .hostHTTP }
            if starts("__Host-") { return .host }
            return starts("__Http-") ? .http : nil
        }
    }
}
