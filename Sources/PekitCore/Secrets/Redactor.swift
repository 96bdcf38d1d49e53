/// Keeps secrets out of what pekit writes (`--secret NAME=VALUE`): each value is replaced by
/// `<secret NAME>` as itself and in the forms it travels in — percent-encoded (either case, with
/// `+` for space or not), JSON-escaped, base64 (standard and URL-safe) — and a base64 token whose
/// decoding holds a secret (a Basic `Authorization`, `user:secret`) is replaced whole.
public struct Redactor: Sendable {
    struct Needle: Sendable { let bytes: [UInt8]; let name: String }
    let needles: [Needle]
    let secrets: [(name: String, value: [UInt8])]

    /// The longest form a secret takes: a stream holds back one byte less than this.
    public let longest: Int

    /// - Parameter secrets: names and values; an empty value is ignored.
    public init(secrets: [(name: String, value: String)]) {
        var needles: [Needle] = []
        var kept: [(name: String, value: [UInt8])] = []
        for (name, value) in secrets where !value.isEmpty {
            let bytes = Array(value.utf8)
            kept.append((name, bytes))
            var forms: [[UInt8]] = [bytes]
            forms.append(PercentEncoder(allowed: .unreserved).encode(bytes: bytes))
            forms.append(PercentEncoder(allowed: .unreserved, hexCase: .lower).encode(bytes: bytes))
            forms.append(PercentEncoder(allowed: .unreserved, space: .plus).encode(bytes: bytes))
            let json = JSON.write(.text(value))
            forms.append(Array(json.dropFirst().dropLast()))
            forms.append(Base64.encode(bytes, alphabet: .standard))
            forms.append(Base64.encode(bytes, alphabet: .url))
            var seen = Set<[UInt8]>()
            for form in forms where !form.isEmpty && seen.insert(form).inserted { needles.append(Needle(bytes: form, name: name)) }
        }
        // Longest first, so a form that contains another is replaced whole.
        self.needles = needles.sorted { $0.bytes.count > $1.bytes.count }
        self.secrets = kept
        longest = needles.map { $0.bytes.count }.max() ?? 0  // a closure: a key path is built at run time
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { secrets.isEmpty }

    /// `bytes` with every secret replaced.
    /// Complexity: O(n × forms) for the forms, and one decoding a base64-looking token.
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        guard !secrets.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        outer: while i < bytes.count {
            for needle in needles where bytes[i] == needle.bytes[0] && i + needle.bytes.count <= bytes.count {
                if bytes[i..<(i + needle.bytes.count)].elementsEqual(needle.bytes) {
                    out += Array("<secret \(needle.name)>".utf8)
                    i += needle.bytes.count
                    continue outer
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return redactEncodedTokens(out)
    }

    /// The text form of `redact`.
    public func redact(_ text: String) -> String {
        secrets.isEmpty ? text : String(decoding: redact(Array(text.utf8)), as: UTF8.self)
    }

    static func isBase64(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == 0x2B || c == 0x2F || c == 0x2D || c == 0x5F || c == 0x3D
    }

    /// Base64 tokens (8 or more characters) whose decoding holds a secret, replaced whole.
    func redactEncodedTokens(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < bytes.count {
            guard Self.isBase64(bytes[i]) else { out.append(bytes[i]); i += 1; continue }
            var j = i
            while j < bytes.count, Self.isBase64(bytes[j]) { j += 1 }
            let token = Array(bytes[i..<j])
            if token.count >= 8, let name = secretInside(token) { out += Array("<secret \(name)>".utf8) } else { out += token }
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
