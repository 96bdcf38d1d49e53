/// What every cookie must be, wherever it comes from (a response, a file, a script's `jar:set`):
/// checked before it is stored, so that one bad cookie cannot poison a jar for good.
extension Cookie {
    /// The longest a cookie is kept: 400 days from when it is stored. RFC 6265bis §5.5 has user
    /// agents cap Expires and Max-Age so, as browsers do; it also keeps every expiry a number a
    /// file and a date can hold.
    public static let maximumLifetime: Double = 400 * 86400

    /// Why a cookie with this name and value cannot be stored, or nil. Control characters in the
    /// name or value make a user agent ignore the whole Set-Cookie (RFC 6265bis §5.6): sent back,
    /// they would make every later request with the jar an invalid header. A tab, which the RFC
    /// lets through, is refused too, as curl does: cookies.txt separates its fields by tabs, so
    /// such a cookie could not be saved and read back.
    public static func problem(name: String, value: String, limit: Int) -> String? {
        for (what, text) in [("name", name), ("value", value)] {
            if let bad = text.utf8.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
                let byte = text.utf8[bad]
                let hex = String(byte, radix: 16, uppercase: true)
                let why = byte == 0x09 ? "a cookies.txt line could not carry it; curl drops such cookies too" : "ignored, as RFC 6265bis section 5.6 says"
                return "the \(what) holds control byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte \(text.utf8.distance(from: text.utf8.startIndex, to: bad) + 1) (\(why))"
            }
        }
        if name.utf8.count + value.utf8.count > limit {
            return "name and value are \(name.utf8.count + value.utf8.count) bytes; the limit is \(limit)"
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
}
