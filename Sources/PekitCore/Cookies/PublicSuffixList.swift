/// The Public Suffix List (publicsuffix.org) and its matching algorithm, read from the list
/// file (Debian's `publicsuffix` package installs it at `defaultPath`).
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private var rules: Set<String> = []
    private var wildcards: Set<String> = []    // "*.ck" stored as "ck"
    private var exceptions: Set<String> = []   // "!www.ck" stored as "www.ck"

    /// Parses list text (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses the list's bytes. Scans bytes, not Characters: the list is 230 KB and every
    /// cookie command reads it, so this is the whole cost of their start-up (about 1 ms).
    /// Complexity: O(n) in the size of the list.
    public init(bytes: [UInt8]) {
        rules.reserveCapacity(10_000)
        var i = 0
        let n = bytes.count
        while i < n {
            // One line: the rule is its first word; "//" starts a comment line.
            var end = i
            while end < n && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            var wordEnd = i
            while wordEnd < end && bytes[wordEnd] != 0x20 && bytes[wordEnd] != 0x09 { wordEnd += 1 }
            if wordEnd > i && !(wordEnd - i >= 2 && bytes[i] == 0x2F && bytes[i + 1] == 0x2F) {
                var start = i
                var kind = 0  // 0 rule, 1 wildcard, 2 exception
                if bytes[start] == 0x21 { kind = 2; start += 1 }
                else if wordEnd - start >= 2 && bytes[start] == 0x2A && bytes[start + 1] == 0x2E { kind = 1; start += 2 }
                let rule = String(decoding: bytes[start..<wordEnd].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                switch kind {
                case 1: wildcards.insert(rule)
                case 2: exceptions.insert(rule)
                default: rules.insert(rule)
                }
            }
            i = end + 1
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
            throw CookieError.publicSuffixList("cannot read the public suffix list at \(path): \(why) (install Debian's publicsuffix package, or name a list with PEKIT_PUBLIC_SUFFIX_LIST)")
        }
    }

    /// Reads the list file the environment names (`PEKIT_PUBLIC_SUFFIX_LIST`, else `defaultPath`).
    public static func load(environment: [String: String]) throws -> PublicSuffixList {
        try load(path: path(environment: environment))
    }

    /// The number of rules (for sanity checks).
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// The public suffix of `host` by the list's algorithm (the implicit rule "*" applies when
    /// no rule matches, so every TLD is a public suffix).
    public func publicSuffix(of host: String) -> String {
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !labels.isEmpty else { return host }
        var best = labels.count - 1  // index where the suffix starts; "*" rule: the last label
        for start in (0..<labels.count).reversed() {
            let candidate = labels[start...].joined(separator: ".")
            if exceptions.contains(candidate) { return labels[(start + 1)...].joined(separator: ".") }
            if rules.contains(candidate) { best = start }
            if start > 0, wildcards.contains(candidate) { best = start - 1 }
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
