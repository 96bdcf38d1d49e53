/// The Public Suffix List (publicsuffix.org) and its matching algorithm, read from the list
/// file (Debian's `publicsuffix` package installs it at `defaultPath`).
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The rules, indexed without making a String each: every command that touches cookies
    /// reads the 230 KB list, so building 10,000 strings and a set of them was most of their
    /// start-up. A rule is found by the hash of its kind and lower-cased bytes, then compared
    /// byte for byte against the list itself (a hash collision cannot give a wrong answer).
    private enum Kind: UInt8 { case rule = 0, wildcard = 1, exception = 2 }
    /// The list's bytes, lower-cased (ASCII).
    private let text: [UInt8]
    /// An open-addressing table (a power of two long; 0 marks an empty slot): hash(kind, rule)
    /// in `keys`, the rule's place in `text` (start << 16 | length) at the same slot in `places`.
    /// A lookup is one FNV hash and, most often, one probe: no Hasher, no dictionary.
    private var keys: [UInt64] = []
    private var places: [Int] = []
    /// The rules the list holds.
    private(set) public var count = 0

    /// Parses list text (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses the list's bytes (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    /// Complexity: O(n) in the size of the list, with no allocation per rule.
    public init(bytes: [UInt8]) {
        text = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        // At most half full: a line is at most one rule, and the real list has about 10,000
        // rules in 230 KB (one a 23 bytes), so a table of bytes / 8 slots is never over half full.
        var slots = 1024
        while slots < text.count / 8 + 64 { slots <<= 1 }
        keys = Array(repeating: 0, count: slots)
        places = Array(repeating: 0, count: slots)
        var i = 0
        let n = text.count
        while i < n {
            // One line: the rule is its first word; "//" starts a comment line.
            var end = i
            while end < n && text[end] != 0x0A && text[end] != 0x0D { end += 1 }
            var wordEnd = i
            while wordEnd < end && text[wordEnd] != 0x20 && text[wordEnd] != 0x09 { wordEnd += 1 }
            if wordEnd > i && !(wordEnd - i >= 2 && text[i] == 0x2F && text[i + 1] == 0x2F) {
                var start = i
                var kind = Kind.rule
                if text[start] == 0x21 { kind = .exception; start += 1 }
                else if wordEnd - start >= 2 && text[start] == 0x2A && text[start + 1] == 0x2E { kind = .wildcard; start += 2 }
                if wordEnd > start && wordEnd - start < 1 << 16 { insert(kind, start, wordEnd - start) }
            }
            i = end + 1
        }
    }

    /// The table key of a rule of `kind` whose bytes hash to `h` (FNV-1a, last byte to first:
    /// a host's tails are hashed from its end, each longer tail continuing the shorter one's).
    /// Never 0, which marks an empty slot.
    private static func key(_ kind: Kind, _ h: UInt64) -> UInt64 {
        FNV1a.add(kind.rawValue + 1, to: h) | 1
    }

    private mutating func insert(_ kind: Kind, _ start: Int, _ length: Int) {
        let h = text.withUnsafeBufferPointer { FNV1a.addReversed(UnsafeBufferPointer(rebasing: $0[start..<start + length]), to: FNV1a.basis) }
        let found = text.withUnsafeBufferPointer { contains(kind, UnsafeBufferPointer(rebasing: $0[start..<start + length]), hash: h) }
        if found { return }  // a repeated rule
        // The table is never over half full (see init) unless the list is denser than sized for.
        if 2 * (count + 1) > keys.count { grow() }
        Self.place(Self.key(kind, h), start << 16 | length, keys: &keys, places: &places)
        count += 1
    }

    /// Puts an entry in the first free slot from its key's (linear probing).
    private static func place(_ key: UInt64, _ place: Int, keys: inout [UInt64], places: inout [Int]) {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key) & mask
        while keys[slot] != 0 { slot = (slot + 1) & mask }
        keys[slot] = key
        places[slot] = place
    }

    /// Twice the slots, every rule placed again (only for a list denser than `init` sized for).
    private mutating func grow() {
        var newKeys = [UInt64](repeating: 0, count: keys.count * 2), newPlaces = [Int](repeating: 0, count: keys.count * 2)
        for (key, place) in zip(keys, places) where key != 0 { Self.place(key, place, keys: &newKeys, places: &newPlaces) }
        keys = newKeys
        places = newPlaces
    }

    /// Whether `candidate` (lower-case) is a rule of `kind`.
    private func contains(_ kind: Kind, _ candidate: [UInt8]) -> Bool {
        candidate.withUnsafeBufferPointer { contains(kind, $0) }
    }

    /// Whether the bytes of `candidate` (lower-case) are a rule of `kind`: no copy of them. Every
    /// slot of the run with the same hash is compared byte for byte against the list itself (a
    /// hash collision cannot give a wrong answer).
    private func contains(_ kind: Kind, _ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(kind, candidate, hash: FNV1a.addReversed(candidate, to: FNV1a.basis))
    }

    /// `contains` with the candidate's bytes already hashed (`FNV1a.addReversed`).
    private func contains(_ kind: Kind, _ candidate: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        guard !keys.isEmpty else { return false }
        let key = Self.key(kind, hash)
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key) & mask
        while true {
            let k = keys[slot]
            if k == 0 { return false }
            if k == key {
                let place = places[slot]
                let ruleStart = place >> 16, ruleLength = place & 0xFFFF
                if ruleLength == candidate.count, text.withUnsafeBufferPointer({ rules in
                    var i = 0
                    while i < ruleLength && rules[ruleStart + i] == candidate[i] { i += 1 }
                    return i == ruleLength
                }) { return true }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The list file the environment names: `PEKIT_PUBLIC_SUFFIX_LIST`, else `defaultPath`.
    public static func path(environment: [String: String]) -> String {
        environment["PEKIT_PUBLIC_SUFFIX_LIST"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPath
    }

    /// The largest list file read (the real one is about 230 KB).
    static let fileLimit = 16 << 20

    /// Reads the list file.
    /// - Throws: `CookieError.publicSuffixList` when it cannot be read.
    public static func load(path: String = defaultPath) throws -> PublicSuffixList {
        switch Files.read(path, limit: fileLimit) {
        case .bytes(let bytes): return PublicSuffixList(bytes: bytes)
        case .notRegular: throw CookieError.publicSuffixList("\(path) is not a regular file, so not a public suffix list")
        case .tooLarge: throw CookieError.publicSuffixList("\(path) is larger than \(fileLimit >> 20) MB, so not a public suffix list")
        case .failed(let why):
            throw CookieError.publicSuffixList("cannot read the public suffix list at \(path): \(why) (name a readable list with PEKIT_PUBLIC_SUFFIX_LIST)")
        }
    }

    /// Reads the list file the environment names (`PEKIT_PUBLIC_SUFFIX_LIST`), else the
    /// installed one at `defaultPath`, else the built-in copy (`builtIn`) where none is installed.
    /// - Throws: `CookieError.publicSuffixList` when a named or installed list cannot be read.
    public static func load(environment: [String: String]) throws -> PublicSuffixList {
        try load(environment: environment, installed: defaultPath)
    }

    /// `load(environment:)` with the installed list looked for at `installed`.
    static func load(environment: [String: String], installed: String) throws -> PublicSuffixList {
        let named = environment["PEKIT_PUBLIC_SUFFIX_LIST"].flatMap { $0.isEmpty ? nil : $0 }
        if named == nil && !Files.exists(installed) { return builtIn }
        return try load(path: named ?? installed)
    }

    /// The list as `scripts/public-suffix-list` copied it into PekitCore (`builtInVersion` says
    /// its date), parsed on first use: the list where no list file is installed.
    public static let builtIn = PublicSuffixList(text: builtInRules)

    /// Reads the list file this process's environment names. One `getenv`, not a dictionary of
    /// the whole environment: the cookie commands' start-up is this and little else.
    public static func loadFromProcessEnvironment() throws -> PublicSuffixList {
        let named = CLibrary.environment("PEKIT_PUBLIC_SUFFIX_LIST")
        return try load(environment: named.map { ["PEKIT_PUBLIC_SUFFIX_LIST": $0] } ?? [:])
    }

    /// The public suffix of `host` by the list's algorithm (the implicit rule "*" applies when
    /// no rule matches, so every TLD is a public suffix).
    public func publicSuffix(of host: String) -> String {
        let lower = host.lowercased()
        var source = lower
        return source.withUTF8 { bytes in
            guard let start = suffixStart(bytes) else { return publicSuffix(ofLabels: lower) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
        }
    }

    /// Where the public suffix of a lower-case host starts in its bytes (its count when an
    /// exception rule leaves none), or nil when a label is Punycode (those need their Unicode
    /// forms too: `publicSuffix(ofLabels:)`). Each candidate is a tail of the host's own bytes,
    /// looked up in place, labels walked from the right: no string or array is made.
    private func suffixStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        func labelStart(before end: Int) -> Int {
            var s = end
            while s > 0 && bytes[s - 1] != 0x2E { s -= 1 }
            return s
        }
        var end = n, right = n, best = -1, h = FNV1a.basis
        while true {
            let start = labelStart(before: end)
            if end - start >= 4 && bytes[start] == 0x78 && bytes[start + 1] == 0x6E && bytes[start + 2] == 0x2D && bytes[start + 3] == 0x2D {
                return nil  // "xn--"
            }
            if best < 0 { best = start }  // the "*" rule: the last label
            let tail = UnsafeBufferPointer(rebasing: bytes[start...])
            h = FNV1a.addReversed(UnsafeBufferPointer(rebasing: bytes[start..<right]), to: h)  // this label and the dot after it
            if contains(.exception, tail, hash: h) { return right }
            if contains(.rule, tail, hash: h) { best = start }
            if start > 0, contains(.wildcard, tail, hash: h) { best = labelStart(before: start - 1) }
            if start == 0 { return best }
            right = start
            end = start - 1
        }
    }

    /// `publicSuffix(of:)` label by label, for hosts with Punycode labels.
    func publicSuffix(ofLabels host: String) -> String {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !labels.isEmpty else { return host }
        // The list writes internationalized rules in Unicode (中国, 公司.cn) and hosts arrive in
        // their ASCII form (xn--fiqs8s): a rule matches in either.
        let unicodeLabels = labels.contains(where: { $0.hasPrefix("xn--") }) ? labels.map { IDNA.labelToUnicode($0) } : nil
        func has(_ kind: Kind, _ start: Int) -> Bool {
            if contains(kind, Array(labels[start...].joined(separator: ".").utf8)) { return true }
            guard let unicodeLabels else { return false }
            return contains(kind, Array(unicodeLabels[start...].joined(separator: ".").utf8))
        }
        var best = labels.count - 1  // index where the suffix starts; "*" rule: the last label
        for start in (0..<labels.count).reversed() {
            if has(.exception, start) { return labels[(start + 1)...].joined(separator: ".") }
            if has(.rule, start) { best = start }
            if start > 0, has(.wildcard, start) { best = start - 1 }
        }
        return labels[best...].joined(separator: ".")
    }

    /// Whether `domain` is itself a public suffix (`com`, `co.uk`, `github.io`).
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard !domain.isEmpty else { return false }
        var source = domain
        // Most domains arrive lower-case (a cookie's always do): looked up in their own bytes.
        let answer: Bool? = source.withUTF8 { bytes in
            // Only ASCII with no upper case is its own lower case; anything else is lower-cased
            // by Unicode's rules first, as `publicSuffix(of:)` does.
            if bytes.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) { return nil }
            return suffixStart(bytes).map { $0 == 0 } ?? (publicSuffix(ofLabels: domain) == domain)
        }
        if let answer { return answer }
        let lower = domain.lowercased()
        return publicSuffix(of: lower) == lower
    }

    /// The registrable domain (public suffix plus one label), or nil for a public suffix itself.
    public func registrableDomain(_ host: String) -> String? {
        let suffix = publicSuffix(of: host)
        let lower = host.lowercased()
        guard lower.count > suffix.count else { return nil }
        let head = lower.dropLast(suffix.count + 1)
        return (head.split(separator: ".").last.map(String.init) ?? "") + "." + suffix
    }
}
