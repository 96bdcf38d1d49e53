/// The Public Suffix List (publicsuffix.org) and its matching algorithm, read from the list
/// file (Debian's `publicsuffix` package installs it at `defaultPath`).
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private var rules: Set<String> = []
    private var wildcards: Set<String> = []    // "*.ck" stored as "ck"
    private var exceptions: Set<String> = []   // "!www.ck" stored as "www.ck"

    /// Parses list text (rules one a line, `//` comments, `*.` wildcards, `!` exceptions).
    public init(text: String) {
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            if line.isEmpty || line.hasPrefix("//") { continue }
            let rule = line.lowercased()
            if rule.hasPrefix("!") { exceptions.insert(String(rule.dropFirst())) }
            else if rule.hasPrefix("*.") { wildcards.insert(String(rule.dropFirst(2))) }
            else { rules.insert(rule) }
        }
    }

    /// Reads the list file.
    /// - Throws: `CookieError.publicSuffixList` when it cannot be read.
    public static func load(path: String = defaultPath) throws -> PublicSuffixList {
        guard let text = readTextFile(path) else {
            throw CookieError.publicSuffixList("cannot read the public suffix list at \(path) (install Debian's publicsuffix package)")
        }
        return PublicSuffixList(text: text)
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
