/// Python 3.11's `http.cookies.SimpleCookie.load`, ported from `_CookiePattern` and
/// `BaseCookie.__parse_string`, on the header as WSGI hands it over (each byte a latin-1
/// character; the pattern is `re.ASCII`).
///
/// The pattern is matched again and again from where the last match ended: optional
/// whitespace, the shortest name of legal characters after which the rest matches, then
/// optionally `=` and a value (a double-quoted string, an `expires` date, or legal value
/// characters), then whitespace or a `;` or the end. Where it stops matching, the cookies read so
/// far are kept; a name without a value, or an attribute name (`Path`, `expires`…) before any
/// cookie, makes the header invalid: nothing is kept. `$`-names before a cookie are skipped,
/// after one they are its attributes. Then the cookies are set in order (the last of a name
/// wins, at the first one's place), and `CookieError` is raised for a name outside
/// `_LegalChars` or an unknown `$`-attribute.
enum PythonCookies {
    static let reserved: Set<[UInt8]> = Set(["expires", "path", "comment", "domain", "max-age", "secure", "httponly", "version", "samesite"].map { Array($0.utf8) })
    static let flags: Set<[UInt8]> = [Array("secure".utf8), Array("httponly".utf8)]

    static func isAlphanumeric(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    static func isWord(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == 0x5F }
    /// `_LegalKeyChars`: `\w\d!#%&'~_`><@,:/\$\*\+\-\.\^\|\)\(\?\}\{\=`.
    static func isKeyChar(_ b: UInt8) -> Bool { isWord(b) || Array("!#%&'~`><@,:/$*+-.^|)(?}{=".utf8).contains(b) }
    /// `_LegalValueChars`: the key characters and `[`, `]`.
    static func isValueChar(_ b: UInt8) -> Bool { isKeyChar(b) || b == 0x5B || b == 0x5D }
    /// `_LegalChars`, what `Morsel.set` takes in a name.
    static func isLegalKey(_ name: ArraySlice<UInt8>) -> Bool {
        !name.isEmpty && name.allSatisfy { isAlphanumeric($0) || Array("!#$%&'*+-.^_`|~:".utf8).contains($0) }
    }

    static func parse(_ header: [UInt8]) throws -> PekitValue {
        enum Item { case attribute([UInt8], [UInt8]?), cookie([UInt8], [UInt8]) }
        var items: [Item] = []
        var morselSeen = false
        var i = 0
        while i < header.count, let match = match(header, at: i) {
            i = match.end
            let key = Array(header[match.key])
            let value = match.value.map { Array(header[$0]) }
            if key[0] == 0x24 {
                if !morselSeen { continue }
                items.append(.attribute(Array(key.dropFirst()), value))
            } else if reserved.contains(key.map(ASCII.lower)) {
                guard morselSeen else { return .map(PekitMap(ordered: [])) }
                if let value {
                    items.append(.attribute(key, unquote(value)))
                } else if flags.contains(key.map(ASCII.lower)) {
                    items.append(.attribute(key, nil))
                } else {
                    return .map(PekitMap(ordered: []))
                }
            } else if let value {
                items.append(.cookie(key, unquote(value)))
                morselSeen = true
            } else {
                return .map(PekitMap(ordered: []))
            }
        }
        // Applied in order: an error leaves the program with nothing but the error.
        var names: [[UInt8]] = [], values: [[UInt8]: [UInt8]] = [:]
        for item in items {
            switch item {
            case .attribute(let name, _):
                guard reserved.contains(name.map(ASCII.lower)) else {
                    throw error("Invalid attribute \(repr(name.map(ASCII.lower)))")
                }
            case .cookie(let name, let value):
                guard isLegalKey(name[...]) else { throw error("Illegal key \(repr(name))") }
                if values.updateValue(value, forKey: name) == nil { names.append(name) }
            }
        }
        return .map(PekitMap(ordered: names.map { name in
            .init(key: ByteString(CookieServer.latin1ToUTF8(name)), value: .string(ByteString(CookieServer.latin1ToUTF8(values[name] ?? []))))
        }))
    }

    static func error(_ message: String) -> QueryServerError {
        QueryServerError(server: "Python", kind: "CookieError", message: message)
    }

    /// One match of `_CookiePattern` at `start`, found in the order Python's backtracking tries
    /// the alternatives: the name's range, the value's (nil: no `=` group), and where it ends.
    static func match(_ s: [UInt8], at start: Int) -> (key: Range<Int>, value: Range<Int>?, end: Int)? {
        let n = s.count
        var p = start
        while p < n, isSpace(s[p]) { p += 1 }
        /// `\s*(\s+|;|$)` from `q`: where it ends, or nil.
        func tail(_ q: Int) -> Int? {
            var r = q
            while r < n, isSpace(s[r]) { r += 1 }
            if r < n, s[r] == 0x3B { return r + 1 }
            if r == n || r > q { return r }
            return nil
        }
        /// The value's alternatives at `v`, with the tail after them.
        func value(at v: Int) -> (Range<Int>, Int)? {
            // A double-quoted string: items of any character but `\` and `"`, or `\` and a
            // character that is not a newline.
            if v < n, s[v] == 0x22 {
                var j = v + 1
                while j < n, s[j] != 0x22 {
                    if s[j] == 0x5C { guard j + 1 < n, s[j + 1] != 0x0A else { break }; j += 2 } else { j += 1 }
                }
                if j < n, s[j] == 0x22, let end = tail(j + 1) { return (v..<(j + 1), end) }
            }
            // `\w{3},\s[\w\d\s-]{9,11}\s[\d:]{8}\sGMT`
            if v + 4 < n, s[v..<(v + 3)].allSatisfy(isWord), s[v + 3] == 0x2C, isSpace(s[v + 4]) {
                for count in [11, 10, 9] {
                    var j = v + 5
                    guard j + count <= n, s[j..<(j + count)].allSatisfy({ isWord($0) || isSpace($0) || $0 == 0x2D }) else { continue }
                    j += count
                    guard j + 13 <= n, isSpace(s[j]), s[(j + 1)..<(j + 9)].allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x3A }),
                          isSpace(s[j + 9]), s[(j + 10)..<(j + 13)].elementsEqual(Array("GMT".utf8)), let end = tail(j + 13) else { continue }
                    return (v..<(j + 13), end)
                }
            }
            // Legal value characters, greedy (a shorter run ends before a legal character,
            // where the tail cannot match).
            var r = v
            while r < n, isValueChar(s[r]) { r += 1 }
            if let end = tail(r) { return (v..<r, end) }
            return nil
        }
        var k = p
        while k < n, isKeyChar(s[k]) {
            k += 1
            // The `=` group first (`?` is greedy), then without it.
            var q = k
            while q < n, isSpace(s[q]) { q += 1 }
            if q < n, s[q] == 0x3D {
                var v = q + 1
                while v < n, isSpace(s[v]) { v += 1 }
                // `\s*` after the `=` gives back one space at a time.
                while v > q {
                    if let (range, end) = value(at: v) { return (p..<k, range, end) }
                    v -= 1
                }
            }
            if let end = tail(k) { return (p..<k, nil, end) }
        }
        return nil
    }

    /// `_unquote`: a value in double quotes loses them, `\ooo` (octal, first digit 0–3) is that
    /// byte and `\x` is `x`.
    static func unquote(_ s: [UInt8]) -> [UInt8] {
        guard s.count >= 2, s.first == 0x22, s.last == 0x22 else { return s }
        let inner = Array(s.dropFirst().dropLast())
        var out: [UInt8] = []
        var i = 0
        while i < inner.count {
            let isOctal = { (j: Int) in inner[j] == 0x5C && (0x30...0x33).contains(inner[j + 1])
                && (0x30...0x37).contains(inner[j + 2]) && (0x30...0x37).contains(inner[j + 3]) }
            let octal = (i..<inner.count).first { j in inner[j] == 0x5C && j + 3 < inner.count && isOctal(j) }
            let quote = (i..<inner.count).first { j in inner[j] == 0x5C && j + 1 < inner.count && inner[j + 1] != 0x0A }
            if octal == nil && quote == nil { out += inner[i...]; break }
            if let k = quote, octal.map({ k < $0 }) ?? true {
                out += inner[i..<k]; out.append(inner[k + 1]); i = k + 2
            } else if let j = octal {
                out += inner[i..<j]
                out.append((inner[j + 1] - 0x30) << 6 | (inner[j + 2] - 0x30) << 3 | (inner[j + 3] - 0x30))
                i = j + 4
            }
        }
        return out
    }

    /// Python's `repr` of a latin-1 string, as its messages quote a name.
    static func repr(_ s: [UInt8]) -> String { PythonParser.repr(CookieServer.latin1ToUTF8(s)) }
}
