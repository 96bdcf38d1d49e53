/// Keeps secrets out of what pekit writes (`--secret NAME=VALUE`): each value is replaced by
/// `<secret NAME>` as itself and in every form pekit's writers put it in, however many of its
/// bytes they escape: percent-encoded under any policy (`%7E`, `%2A`, `%20` or `+`, either hex
/// case: GitHub's `%25`, `%0A`, `%3A` too), JSON-escaped, XML-escaped (`&amp;`, `&#38;`), shell
/// single-quoted (`'\''`), printf's format (`%%`, octal `\303\244`), base64 (standard and
/// URL-safe; a base64 token whose decoding holds a secret, a Basic `Authorization`, is replaced
/// whole). A multi-line secret (a PEM key) is also redacted line by line, as GitHub masks it, so
/// that output that indents or wraps its lines leaves none of them.
public struct Redactor: Sendable {
    struct Needle: Sendable { let bytes: [UInt8]; let name: String }
    /// What is matched with escapes allowed: the secret, and each line of a multi-line one.
    struct Unit: Sendable { let bytes: [UInt8]; let name: String }
    let needles: [Needle]
    let units: [Unit]
    let secrets: [(name: String, value: [UInt8])]

    /// The longest form a secret takes: a stream holds back one byte less than this.
    public let longest: Int

    /// The shortest line of a multi-line secret redacted on its own (shorter ones, a lone `}`,
    /// would mask ordinary text and reveal nothing).
    public static let minimumLine = 4

    /// - Parameter secrets: names and values; an empty value is ignored.
    public init(secrets: [(name: String, value: String)]) {
        var needles: [Needle] = [], units: [Unit] = []
        var kept: [(name: String, value: [UInt8])] = []
        for (name, value) in secrets where !value.isEmpty {
            let bytes = Array(value.utf8)
            kept.append((name, bytes))
            var parts = [bytes]
            let lines = bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map(Array.init)
            if lines.count > 1 { parts += lines.filter { $0.count >= Self.minimumLine } }
            for part in parts {
                units.append(Unit(bytes: part, name: name))
                // Whole forms the escape-aware match does not read: JSON's \u escapes of
                // non-ASCII, and base64.
                var forms: [[UInt8]] = [part]
                let json = JSONText.write(.text(String(decoding: part, as: UTF8.self)))
                forms.append(Array(json.dropFirst().dropLast()))
                forms.append(Base64.encode(part, alphabet: .standard))
                forms.append(Base64.encode(part, alphabet: .url))
                var seen = Set<[UInt8]>()
                for form in forms where !form.isEmpty && seen.insert(form).inserted { needles.append(Needle(bytes: form, name: name)) }
            }
        }
        // Longest first, so a form that contains another is replaced whole.
        self.needles = needles.sorted { $0.bytes.count > $1.bytes.count }
        self.units = units.sorted { $0.bytes.count > $1.bytes.count }
        self.secrets = kept
        // An escaped byte takes at most 6 bytes (`&quot;`, `\u0022`).
        let escaped = units.map { $0.bytes.count * Self.longestEscape }.max() ?? 0
        longest = max(needles.map { $0.bytes.count }.max() ?? 0, escaped)  // a closure: a key path is built at run time
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { secrets.isEmpty }

    /// How a redacted secret is written: `<secret NAME>`, or as XML text (`&lt;secret NAME&gt;`,
    /// which an XML reader shows as the first) for a document whose markup must stay well-formed.
    public enum Placeholder: Sendable {
        /// `<secret NAME>`.
        case plain
        /// `&lt;secret NAME&gt;`, for XML text and attribute values.
        case xml

        func bytes(_ name: String) -> [UInt8] {
            switch self {
            case .plain: return Array("<secret \(name)>".utf8)
            case .xml: return Array("&lt;secret \(name)&gt;".utf8)
            }
        }
    }

    /// `bytes` with every secret replaced by `placeholder`.
    /// Complexity: O(n × forms) for the forms, and one decoding a base64-looking token.
    public func redact(_ bytes: [UInt8], placeholder: Placeholder = .plain) -> [UInt8] {
        guard !secrets.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        outer: while i < bytes.count {
            for needle in needles where bytes[i] == needle.bytes[0] && i + needle.bytes.count <= bytes.count {
                if bytes[i..<(i + needle.bytes.count)].elementsEqual(needle.bytes) {
                    out += placeholder.bytes(needle.name)
                    i += needle.bytes.count
                    continue outer
                }
            }
            if Self.mayStartEscape(bytes[i]) || units.contains(where: { $0.bytes[0] == bytes[i] }) {
                for unit in units {
                    if let end = Self.escapedMatch(unit.bytes, in: bytes, at: i) {
                        out += placeholder.bytes(unit.name)
                        i = end
                        continue outer
                    }
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return redactEncodedTokens(out, placeholder)
    }

    /// The text form of `redact`.
    public func redact(_ text: String) -> String {
        secrets.isEmpty ? text : String(decoding: redact(Array(text.utf8)), as: UTF8.self)
    }

    static func isBase64(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == 0x2B || c == 0x2F || c == 0x2D || c == 0x5F || c == 0x3D
    }

    /// Base64 tokens (8 or more characters) whose decoding holds a secret, replaced whole.
    func redactEncodedTokens(_ bytes: [UInt8], _ placeholder: Placeholder) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < bytes.count {
            guard Self.isBase64(bytes[i]) else { out.append(bytes[i]); i += 1; continue }
            var j = i
            while j < bytes.count, Self.isBase64(bytes[j]) { j += 1 }
            let token = Array(bytes[i..<j])
            if token.count >= 8, let name = secretInside(token) { out += placeholder.bytes(name) } else { out += token }
            i = j
        }
        return out
    }

    func secretInside(_ token: [UInt8]) -> String? {
        for alphabet in [Base64.Alphabet.standard, .url] {
            guard let decoded = try? Base64.decode(token, alphabet: alphabet) else { continue }
            for secret in secrets where decoded.count >= secret.value.count && decoded.firstRange(of: secret.value) != nil { return secret.name }
        }
        return nil
    }
}
