/// A Set-Cookie header value parsed per RFC 6265 §5.2, before the storage model applies.
public struct SetCookie: Equatable, Sendable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as text.
    public var value: String
    /// The value's bytes where they are not UTF-8 (kept as they came); nil otherwise.
    public var rawValue: [UInt8]?
    /// Seconds since the epoch from Expires, if it parsed.
    public var expires: Int64?
    /// Max-Age in seconds, if it parsed (wins over Expires).
    public var maxAge: Int64?
    /// The Domain attribute, leading dot removed, lower-cased; nil when absent or empty.
    public var domain: String?
    /// The Path attribute when it starts with '/'; nil means the default path.
    public var path: String?
    /// Whether `Secure` was given.
    public var secure = false
    /// Whether `HttpOnly` was given.
    public var httpOnly = false
    /// The `SameSite` attribute, nil when absent or not one of its three values.
    public var sameSite: Cookie.SameSite?
    /// Whether `Partitioned` was given.
    public var partitioned = false
    /// Attributes ignored because their values are over 1,024 bytes (§5.6 step 6), by their
    /// names as written: a stored cookie's warnings (`CookieRule.attributeTooLong`).
    public var ignoredAttributes: [String] = []

    /// Parses one Set-Cookie value as RFC 6265bis §5.6 does; nil when it says to ignore it (an
    /// empty name and an empty value). A name-value pair with no '=' is a value with an empty
    /// name (`foo` is sent back as `foo`), as browsers keep it. Read as octets, as §5.6 reads it: `;`, `=` and the spaces and
    /// tabs trimmed are bytes, whatever follows them (a combining mark after a `;` does not hide
    /// it), and attribute names are matched ASCII case-insensitively.
    public init?(_ header: String) {
        var header = header
        guard let parsed = header.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(name: String, value: String, rawValue: [UInt8]?, expires: Int64?, maxAge: Int64?, domain: String?, path: String?,
                 secure: Bool, httpOnly: Bool, sameSite: Cookie.SameSite?, partitioned: Bool, ignoredAttributes: [String]) {
        self.name = name; self.value = value; self.rawValue = rawValue; self.expires = expires; self.maxAge = maxAge
        self.domain = domain; self.path = path; self.secure = secure; self.httpOnly = httpOnly; self.sameSite = sameSite
        self.partitioned = partitioned; self.ignoredAttributes = ignoredAttributes
    }

    /// The longest attribute value applied (RFC 6265bis §5.6 step 6).
    public static let maxAttributeValue = 1024

    /// Where the first control character of a cookie-string is, other than tab (RFC 6265bis §5.6
    /// step 1: such a cookie is ignored whole, attributes included): its offset from 1 and byte.
    static func controlCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, UInt8)? {
        // Eight bytes a step (this scans every cookie received): a word with no byte under 0x20
        // and none equal to 0x7F holds none to report; one that may (a tab is under 0x20 too) is
        // read byte by byte. `controlCharacterByBytes` is the reference a test holds it to.
        guard let base = bytes.baseAddress else { return nil }
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let below = (w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080
            let x = w ^ 0x7F7F_7F7F_7F7F_7F7F
            let del = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if below | del != 0 {
                for j in i..<i + 8 where Self.isControl(base[j]) { return (j + 1, base[j]) }
            }
            i += 8
        }
        while i < n {
            if Self.isControl(base[i]) { return (i + 1, base[i]) }
            i += 1
        }
        return nil
    }

    /// A control byte RFC 6265bis §5.6 refuses in a cookie (a tab aside).
    @inline(__always)
    static func isControl(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x09) || b == 0x7F }

    /// `controlCharacter`, a byte at a time: the reference of the word-at-a-time scan.
    static func controlCharacterByBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, UInt8)? {
        for (i, b) in bytes.enumerated() where isControl(b) { return (i + 1, b) }
        return nil
    }

    /// A word of at most 8 bytes (lower-case ASCII letters and '-') packed little-endian, with
    /// the bit that makes each letter lower case: `bytes | letters == packed` reads the bytes
    /// as the word with its letters in any case, and its other bytes exactly.
    struct Word {
        let packed: UInt64, letters: UInt64, count: Int
        // Written as numbers (the word's bytes little-endian; 0x20 under each letter) so that
        // each is a constant in the binary: a `static let` made by a loop is initialized on
        // first use, behind a check at every read. `SetCookieWordTests` holds each to its text.
        static let path = Word(packed: 0x6874_6170, letters: 0x2020_2020, count: 4)
        static let domain = Word(packed: 0x6E69_616D_6F64, letters: 0x2020_2020_2020, count: 6)
        static let secure = Word(packed: 0x6572_7563_6573, letters: 0x2020_2020_2020, count: 6)
        static let expires = Word(packed: 0x73_6572_6970_7865, letters: 0x20_2020_2020_2020, count: 7)
        static let maxage = Word(packed: 0x65_6761_2D78_616D, letters: 0x20_2020_0020_2020, count: 7)
        static let httponly = Word(packed: 0x796C_6E6F_7074_7468, letters: 0x2020_2020_2020_2020, count: 8)
        static let samesite = Word(packed: 0x6574_6973_656D_6173, letters: 0x2020_2020_2020_2020, count: 8)
        static let strict = Word(packed: 0x7463_6972_7473, letters: 0x2020_2020_2020, count: 6)
        static let lax = Word(packed: 0x78_616C, letters: 0x20_2020, count: 3)
        static let none = Word(packed: 0x656E_6F6E, letters: 0x2020_2020, count: 4)
    }

    /// Whether `bytes[range]` is `word`, its letters in any case: `ASCII.equals(_:ignoringCase:)`
    /// as one comparison of a word (each received cookie compares six or seven attribute names);
    /// held to it on random bytes by `SetCookieWordTests`.
    @inline(__always)
    static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: Word) -> Bool {
        guard range.count == word.count, let base = bytes.baseAddress else { return false }
        var packed: UInt64 = 0
        if range.lowerBound + 8 <= bytes.count {
            // One load of 8 bytes, those past the word masked off.
            let loaded = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
            packed = word.count == 8 ? loaded : loaded & ((1 << (8 * UInt64(word.count))) - 1)
        } else {
            for i in 0..<range.count { packed |= UInt64(bytes[range.lowerBound + i]) << (8 * UInt64(i)) }
        }
        return packed | word.letters == word.packed
    }

    /// `init?(_:)` over a value's bytes as they arrived.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SetCookie? {
        var domain: Range<Int>?
        guard var cookie = parse(bytes, domain: &domain) else { return nil }
        if let domain { cookie.domain = ASCII.lowercased(UnsafeBufferPointer(rebasing: bytes[domain])) }
        return cookie
    }

    /// `parse(_:)` that leaves `domain` nil and gives, in `domainRange`, where the Domain
    /// attribute's text is (its leading dot dropped; nil when absent or empty): the jar makes
    /// no string of it when the response's last cookie named the same one.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, domain domainRange: inout Range<Int>?) -> SetCookie? {
        let end = bytes.count
        func find(_ byte: UInt8, from start: Int, to limit: Int) -> Int? {
            ByteSearch.first(byte, in: UnsafeRawBufferPointer(bytes), from: start, to: limit)
        }
        func trimmed(_ start: Int, _ limit: Int) -> Range<Int> {
            var lo = start, hi = limit
            while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
            while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
            return lo..<hi
        }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func named(_ range: Range<Int>, _ word: StaticString) -> Bool {
            ASCII.equals(UnsafeBufferPointer(rebasing: bytes[range]), ignoringCase: word)
        }
        @inline(__always) func spells(_ range: Range<Int>, _ word: Word) -> Bool { Self.spells(bytes, range, word) }
        let firstSemicolon = find(0x3B, from: 0, to: end)
        let nameValueEnd = firstSemicolon ?? end
        // §5.6 steps 3 to 5: no '=', an empty name and the whole pair the value; both empty: ignored.
        let eq = find(0x3D, from: 0, to: nameValueEnd)
        let nameRange = eq.map { trimmed(0, $0) } ?? 0..<0
        let valueRange = eq.map { trimmed($0 + 1, nameValueEnd) } ?? trimmed(0, nameValueEnd)
        guard !nameRange.isEmpty || !valueRange.isEmpty else { return nil }
        // The fields as values of their own, the cookie made once at the end: a `var` of the
        // whole struct changed in the loop was copied on the way out (each cookie received).
        let name = text(nameRange), value = text(valueRange)
        let valueBytes = UnsafeBufferPointer(rebasing: bytes[valueRange])
        let rawValue = UTF8Validation.isValid(valueBytes) ? nil : Array(valueBytes)
        var expires: Int64?, maxAge: Int64?, path: String?, secure = false, httpOnly = false
        var sameSite: Cookie.SameSite?, partitioned = false, ignoredAttributes: [String] = []
        // Each attribute from the byte after a ';' to the next one (or the end).
        var next = firstSemicolon.map { $0 + 1 }
        while let start = next {
            let stop = find(0x3B, from: start, to: end) ?? end
            let e = find(0x3D, from: start, to: stop)
            let attributeName = trimmed(start, e ?? stop)
            let attributeValue = e.map { trimmed($0 + 1, stop) } ?? stop..<stop
            // By the name's length and first letter: each name is compared with one word at most.
            let initial = attributeName.isEmpty ? 0 : bytes[attributeName.lowerBound] | 0x20
            // RFC 6265bis §5.6 step 6: an attribute whose value is over 1,024 octets is ignored,
            // as if it were absent (a 1,025-byte Domain does not refuse the cookie).
            let tooLong = attributeValue.count > Self.maxAttributeValue
            if tooLong { ignoredAttributes.append(text(attributeName)) }
            switch tooLong ? (0, 0) : (attributeName.count, initial) {
            case (4, 0x70) where spells(attributeName, Word.path):
                path = attributeValue.first.map({ bytes[$0] }) == 0x2F ? text(attributeValue) : nil
            case (6, 0x64) where spells(attributeName, Word.domain):
                // §5.6.3: an empty value is ignored (an earlier Domain stands); "." empties it
                // after the dot is dropped, which makes the cookie host-only (§5.7 step 8).
                if attributeValue.isEmpty { break }
                var domain = attributeValue
                if domain.first.map({ bytes[$0] }) == 0x2E { domain = domain.dropFirst() }
                domainRange = domain.isEmpty ? nil : domain
            case (6, 0x73) where spells(attributeName, Word.secure):
                secure = true
            case (7, 0x65) where spells(attributeName, Word.expires):
                if let seconds = CookieDate.parse(text(attributeValue)) { expires = seconds }
            case (7, 0x6D) where spells(attributeName, Word.maxage):
                // A digit or '-' first, then digits only; otherwise the attribute is ignored.
                let digits = UnsafeBufferPointer(rebasing: bytes[attributeValue])
                if let first = digits.first, first == 0x2D || (0x30...0x39).contains(first),
                   digits.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }), !(digits.count == 1 && first == 0x2D) {
                    maxAge = ASCII.int64(digits) ?? (first == 0x2D ? Int64.min : Int64.max)
                }
            case (8, 0x68) where spells(attributeName, Word.httponly):
                httpOnly = true
            case (8, 0x73) where spells(attributeName, Word.samesite):
                sameSite = spells(attributeValue, Word.strict) ? .strict : spells(attributeValue, Word.lax) ? .lax : spells(attributeValue, Word.none) ? Cookie.SameSite.none : nil
            case (11, 0x70) where named(attributeName, "partitioned"):
                partitioned = true
            default:
                break
            }
            next = stop == end ? nil : stop + 1
        }
        return SetCookie(name: name, value: value, rawValue: rawValue, expires: expires, maxAge: maxAge, domain: nil, path: path,
                         secure: secure, httpOnly: httpOnly, sameSite: sameSite, partitioned: partitioned,
                         ignoredAttributes: ignoredAttributes)
    }
}
