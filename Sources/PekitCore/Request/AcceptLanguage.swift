/// The `Accept-Language` a client library sends by default, which a backend's policy carries
/// (pekit itself sends none, as curl).
public enum AcceptLanguage: Sendable, Equatable {
    /// AFHTTPRequestSerializer's: the preferred languages, q from 1 down by 0.1 (`%0.1g`):
    /// `zh-CN;q=1, en-US;q=0.9`.
    case afnetworking
    /// Alamofire's `HTTPHeader.defaultAcceptLanguage`: the same languages, q as a Swift Double
    /// prints it: `zh-CN;q=1.0, en-US;q=0.9`.
    case alamofire
    /// A fixed value.
    case value(String)

    /// The rule a policy field names (`"afnetworking"`, `"alamofire"`), or a fixed value: neither
    /// name is a valid language range (RFC 4647: at most 8 letters a subtag), so none is taken.
    public init(_ text: String) {
        switch text {
        case "afnetworking": self = .afnetworking
        case "alamofire": self = .alamofire
        default: self = .value(text)
        }
    }

    /// The field's value for a process whose locale is in `environment` (`LANGUAGE`, then
    /// `LC_ALL` or `LANG`; `en` under C or POSIX, as both libraries fall back to).
    public func value(environment: [String: String]) -> String {
        switch self {
        case .value(let text): return text
        case .afnetworking:
            return Self.languages(environment).enumerated().map { i, tag in
                let q = 10 - i
                return "\(tag);q=" + (q == 10 ? "1" : "0.\(q)")
            }.joined(separator: ", ")
        case .alamofire:
            return Self.languages(environment).enumerated().map { i, tag in "\(tag);q=\(1.0 - Double(i) * 0.1)" }.joined(separator: ", ")
        }
    }

    /// The locale's languages as BCP 47 tags, at most six (both libraries take six).
    static func languages(_ environment: [String: String]) -> [String] {
        var languages: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty { languages = list.split(separator: ":").map(String.init) }
        else if let lang = environment["LC_ALL"] ?? environment["LANG"] { languages = [lang] }
        var tags: [String] = []
        for language in languages {
            let base = language.split(separator: ".").first.map(String.init) ?? ""  // drop ".UTF-8"
            let noModifier = base.split(separator: "@").first.map(String.init) ?? ""
            guard !noModifier.isEmpty, noModifier != "C", noModifier != "POSIX" else { continue }
            let tag = String(noModifier.map { $0 == "_" ? "-" : $0 })
            if !tags.contains(tag) { tags.append(tag) }
        }
        return Array((tags.isEmpty ? ["en"] : tags).prefix(6))
    }
}
