/// Why an encoder kept or escaped each character of a string: what `pekit encode --explain`
/// prints, a row a character.
public struct EncodingStep: Sendable, Equatable {
    /// The character's bytes as given (one UTF-8 sequence, one byte that is not UTF-8, or a
    /// `%XX` escape kept whole).
    public let bytes: [UInt8]
    /// What the encoder wrote for them.
    public let written: [UInt8]
    /// Whether they were written as they are.
    public var kept: Bool { written == bytes }
    /// What the character is, in RFC 3986's words (a letter, a sub-delimiter, not ASCII, …).
    public let kind: String
    /// Why it was kept or escaped: the set (and the option that changed it), or the rule.
    public let reason: String
    /// The URL Standard's percent-encode sets that would escape it (§1.3), in its order.
    public let whatwgSets: [String]
}

/// What an `AllowedSet` is called in an explanation: a preset's name, and the bytes options
/// added to it or took out of it.
public struct AllowedSetOrigin: Sendable, Equatable {
    /// The set the options started from and its name ("unreserved", "the policy php's").
    public let base: AllowedSet, name: String
    /// Creates one.
    /// - Parameter base: the set before the options changed it.
    /// - Parameter name: what to call it ("unreserved", "policy php's").
    public init(base: AllowedSet, name: String) { self.base = base; self.name = name }
}

extension PercentEncoder {
    /// The encoding of `input` a character at a time, each with why it was kept or escaped.
    /// The steps' `written` bytes, joined, are `encode(bytes: input)` (held so by a test).
    /// - Parameter input: the bytes to encode.
    /// - Parameter origin: the set the encoder's `allowed` was made from, to say which option
    ///   added or removed a byte; nil: the reason names `allowed` itself.
    /// - Complexity: O(n) in the input's length.
    public func explain(_ input: [UInt8], origin: AllowedSetOrigin? = nil) -> [EncodingStep] {
        var steps: [EncodingStep] = []
        var i = 0
        input.withUnsafeBufferPointer { buffer in
            while i < buffer.count {
                let length: Int
                let kept = keepsValidEscapes && !allowed.contains(0x25) && buffer[i] == 0x25 && i + 2 < buffer.count
                    && ASCII.hexValue(buffer[i + 1]) != nil && ASCII.hexValue(buffer[i + 2]) != nil
                if kept { length = 3 } else { length = buffer[i] < 0x80 ? 1 : UTF8Decoding.sequence(in: buffer, at: i).length }
                let bytes = Array(buffer[i..<i + length])
                steps.append(step(bytes, keptEscape: kept, origin: origin))
                i += length
            }
        }
        return steps
    }

    private func step(_ bytes: [UInt8], keptEscape: Bool, origin: AllowedSetOrigin?) -> EncodingStep {
        let written = encode(bytes: bytes)
        let first = bytes[0]
        let kind = EncodingStep.kind(of: bytes)
        let sets = first < 0x80 ? PercentEncodeSet.named.filter { $0.set.contains(first) }.map(\.name) : PercentEncodeSet.named.map(\.name)
        let reason: String
        if keptEscape {
            reason = "kept: a valid escape already there (keep escapes)"
        } else if first >= 0x80 {
            reason = UTF8Validation.isValid(bytes)
                ? "escaped: not ASCII, each of its \(bytes.count) UTF-8 bytes (RFC 3986 section 2.5)"
                : "escaped: a byte that is not UTF-8, as it is"
        } else if first == 0x20 && written == [0x2B] {
            reason = "written '+': space as plus, the form encoding's rule (a '+' itself is then %2B)"
        } else if first == 0x2B && space == .plus && allowed.contains(first) {
            reason = "escaped: with space written '+', a '+' itself is always %2B"
        } else {
            let inSet = allowed.contains(first)
            if let origin, origin.base.contains(first) != inSet {
                reason = inSet ? "kept: not in the \(origin.name) set, but allowed" : "escaped: in the \(origin.name) set, but disallowed"
            } else {
                reason = "\(inSet ? "kept" : "escaped"): \(inSet ? "in" : "not in") the \(origin?.name ?? "allowed") set"
            }
        }
        return EncodingStep(bytes: bytes, written: written, kind: kind, reason: reason, whatwgSets: sets)
    }
}

extension EncodingStep {
    /// What a character is in RFC 3986's terms (§2.2, §2.3) or else.
    static func kind(of bytes: [UInt8]) -> String {
        let b = bytes[0]
        if bytes.count == 3 && b == 0x25 { return "an escape" }
        switch b {
        case 0x41...0x5A, 0x61...0x7A: return "a letter (unreserved)"
        case 0x30...0x39: return "a digit (unreserved)"
        case 0x2D, 0x2E, 0x5F, 0x7E: return "unreserved"
        case 0x3A, 0x2F, 0x3F, 0x23, 0x5B, 0x5D, 0x40: return "a general delimiter"
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return "a sub-delimiter"
        case 0x20: return "a space"
        case 0x25: return "the escape character"
        case 0x00...0x1F, 0x7F: return "a control character"
        case 0x80...: return UTF8Validation.isValid(bytes) ? "not ASCII" : "not UTF-8"
        default: return "not allowed in a URI"
        }
    }
}

extension PercentEncodeSet {
    /// The URL Standard's sets by the names its text gives them, in its order.
    static let named: [(name: String, set: PercentEncodeSet)] = [
        ("C0 control", c0Control), ("fragment", fragment), ("query", query), ("special-query", specialQuery),
        ("path", path), ("userinfo", userinfo), ("component", component), ("form", formURLEncoded),
    ]
}
