#if canImport(Glibc)
import Glibc
#endif
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
    /// hash(kind, rule) → the rule's place in `text` (start << 16 | length); collisions go to `more`.
    private var index: [UInt64: Int] = [:]
    private var more: [UInt64: [Int]] = [:]
    private(set) public var count = 0

    /// Parses list text (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses the list's bytes (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    /// Complexity: O(n) in the size of the list, with no allocation per rule.
    public init(bytes: [UInt8]) {
        text = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        index.reserveCapacity(12_000)
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

    private static func hash(_ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(kind.rawValue)  // FNV-1a
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    private mutating func insert(_ kind: Kind, _ start: Int, _ length: Int) {
        let key = text.withUnsafeBufferPointer { Self.hash(kind, UnsafeBufferPointer(rebasing: $0[start..<start + length])) }
        let place = start << 16 | length
        if let existing = index[key] {
            if matches(existing, start, length, in: text) { return }  // a repeated rule
            more[key, default: []].append(place)
        } else {
            index[key] = place
        }
        count += 1
    }

    private func matches(_ place: Int, _ start: Int, _ length: Int, in bytes: [UInt8]) -> Bool {
        let ruleStart = place >> 16, ruleLength = place & 0xFFFF
        return ruleLength == length && text[ruleStart..<ruleStart + ruleLength].elementsEqual(bytes[start..<start + length])
    }

    /// Whether `candidate` (lower-case) is a rule of `kind`.
    private func contains(_ kind: Kind, _ candidate: [UInt8]) -> Bool {
        candidate.withUnsafeBufferPointer { contains(kind, $0) }
    }

    /// Whether the bytes of `candidate` (lower-case) are a rule of `kind`: no copy of them.
    private func contains(_ kind: Kind, _ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = Self.hash(kind, candidate)
        func matches(_ place: Int) -> Bool {
            let ruleStart = place >> 16, ruleLength = place & 0xFFFF
            return ruleLength == candidate.count && text[ruleStart..<ruleStart + ruleLength].elementsEqual(candidate)
        }
        guard let place = index[key] else { return false }
        if matches(place) { return true }
        return more[key]?.contains(where: matches) ?? false
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
            throw CookieError.publicSuffixList("cannot read the public suffix list at \(path): \(why) (install Debian's publicsuffix package, or name a list with PEKIT_PUBLIC_SUFFIX_LIST)")
        }
    }

    /// Reads the list file the environment names (`PEKIT_PUBLIC_SUFFIX_LIST`, else `defaultPath`).
    public static func load(environment: [String: String]) throws -> PublicSuffixList {
        try load(path: path(environment: environment))
    }

    /// Reads the list file this process's environment names. One `getenv`, not a dictionary of
    /// the whole environment: the cookie commands' start-up is this and little else.
    public static func loadFromProcessEnvironment() throws -> PublicSuffixList {
        let named = getenv("PEKIT_PUBLIC_SUFFIX_LIST").map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
        return try load(environment: named.map { ["PEKIT_PUBLIC_SUFFIX_LIST": $0] } ?? [:])
    }

    /// The public suffix of `host` by the list's algorithm (the implicit rule "*" applies when
    /// no rule matches, so every TLD is a public suffix).
    public func publicSuffix(of host: String) -> String {
        let lower = host.lowercased()
        // Each candidate is a tail of the host's own bytes (its labels from one on): looked up
        // in place, with no string made per label. Punycode labels need the Unicode forms too.
        let bytes = Array(lower.utf8)
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == 0x2E { starts.append(i + 1) }
        let punycode: [UInt8] = [0x78, 0x6E, 0x2D, 0x2D]  // "xn--", looked for in bytes (String's contains goes through NSString)
        guard !starts.contains(where: { bytes[$0...].starts(with: punycode) }) else { return publicSuffix(ofLabels: lower) }
        return bytes.withUnsafeBufferPointer { buffer -> String in
            func has(_ kind: Kind, _ label: Int) -> Bool { contains(kind, UnsafeBufferPointer(rebasing: buffer[starts[label]...])) }
            var best = starts.count - 1  // the label where the suffix starts; "*" rule: the last label
            for label in (0..<starts.count).reversed() {
                if has(.exception, label) { return label + 1 < starts.count ? String(decoding: buffer[starts[label + 1]...], as: UTF8.self) : "" }
                if has(.rule, label) { best = label }
                if label > 0, has(.wildcard, label) { best = label - 1 }
            }
            return String(decoding: buffer[starts[best]...], as: UTF8.self)
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
        let lower = domain.lowercased()
        return !lower.isEmpty && publicSuffix(of: lower) == lower
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
