import CIDNAShim

/// Domain names between their Unicode and ASCII (Punycode) forms, as the URL Standard defines
/// them (§3.3): UTS #46 processing, non-transitional (`faß.de` is `xn--fa-hia.de`), CheckBidi and
/// CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off — so `☃.net`,
/// `-x.com` and `a_b.com` are hosts, as in every browser.
///
/// The work is ICU's UTS #46 implementation (what Chromium and WebKit use), loaded on the first
/// name that needs it; names that are ASCII with no `xn--` label never touch it (the Standard's
/// own fast path). libidn2 is not used: it implements IDNA2008, which refuses symbols and
/// leading hyphens the URL Standard accepts.
public enum IDNA {
    /// Why a name has no ASCII (or Unicode) form.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The URL Standard's host parsing of `name` for a special scheme — percent-decoded, UTS #46,
    /// then IPv4 in any of its forms — serialized: what node's `url.domainToASCII` returns.
    /// `"例子.中国"` → `"xn--fsqu00a.xn--fiqs8s"`, `"0x7F.1"` → `"127.0.0.1"`, `"[::1]"` → `"[::1]"`.
    /// - Throws: `Failure` naming the label and the rule it breaks.
    public static func domainToASCII(_ name: String) throws -> String {
        var failure = ""
        guard let host = URLHost.parse(Array(name.unicodeScalars), special: true, failure: &failure) else { throw Failure(description: failure) }
        return host.description
    }

    /// The Unicode form of a host (UTS #46 ToUnicode of its ASCII form): `"xn--fsqu00a.xn--fiqs8s"`
    /// → `"例子.中国"`. Addresses come back as `domainToASCII` gives them.
    /// - Throws: `Failure` when `name` is not a host.
    public static func domainToUnicode(_ name: String) throws -> String {
        var failure = ""
        guard let host = URLHost.parse(Array(name.unicodeScalars), special: true, failure: &failure) else { throw Failure(description: failure) }
        guard case .domain(let ascii) = host, needsProcessing(ascii.unicodeScalars) else { return host.description }
        guard let unicode = convert(ascii, toUnicode: true, &failure) else { throw Failure(description: failure) }
        return unicode
    }

    /// The Unicode form of one `xn--` label (itself when it is not valid Punycode).
    static func labelToUnicode(_ label: String) -> String {
        var failure = ""
        return run(label, toUnicode: true, &failure).flatMap { $0.1 & ~ignoredErrors == 0 ? $0.0 : nil } ?? label
    }

    /// ICU's error bits the URL Standard does not count: the hyphen rules (CheckHyphens=false)
    /// and the DNS lengths and empty labels (VerifyDnsLength=false).
    static let ignoredErrors: UInt32 = 0x01 | 0x02 | 0x04 | 0x08 | 0x10 | 0x20

    /// Whether a name needs UTS #46: it is not ASCII, or a label starts with `xn--`.
    static func needsProcessing<S: Sequence>(_ name: S) -> Bool where S.Element == Unicode.Scalar {
        var atLabelStart = true, prefix = 0
        for c in name {
            guard c.isASCII else { return true }
            if c == "." { atLabelStart = true; prefix = 0; continue }
            if atLabelStart {
                let expected: [UInt32] = [0x78, 0x6E, 0x2D, 0x2D]  // "xn--"
                if c.value | (prefix < 2 ? 0x20 : 0) == expected[prefix] {
                    prefix += 1
                    if prefix == 4 { return true }
                } else {
                    atLabelStart = false
                }
            }
        }
        return false
    }

    /// One UTS #46 pass through ICU; nil with a message when it breaks a rule the Standard counts.
    static func convert(_ name: String, toUnicode: Bool, _ failure: inout String) -> String? {
        convert(utf8: Array(name.utf8), toUnicode: toUnicode, &failure)
    }

    static func convert(utf8 name: [UInt8], toUnicode: Bool, _ failure: inout String) -> String? {
        guard let (result, errors) = run(utf8: name, toUnicode: toUnicode, &failure) else { return nil }
        let counted = errors & ~ignoredErrors
        guard counted == 0 else { failure = explain(String(decoding: name, as: UTF8.self), counted); return nil }
        return result
    }

    static func run(_ name: String, toUnicode: Bool, _ failure: inout String) -> (String, UInt32)? {
        run(utf8: Array(name.utf8), toUnicode: toUnicode, &failure)
    }

    static func run(utf8 name: [UInt8], toUnicode: Bool, _ failure: inout String) -> (String, UInt32)? {
        var input = mappingCapitalSharpS(name)
        var capacity = max(64, input.count * 4)
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var errors: UInt32 = 0
            var message: UnsafePointer<CChar>? = nil
            let length = input.withUnsafeMutableBufferPointer { inBuffer in
                inBuffer.withMemoryRebound(to: CChar.self) { i in
                    out.withUnsafeMutableBufferPointer { o in
                        o.withMemoryRebound(to: CChar.self) {
                            pekit_idna_convert(toUnicode ? 1 : 0, i.baseAddress, i.count, $0.baseAddress, $0.count, &errors, &message)
                        }
                    }
                }
            }
            if length < 0 {
                failure = "IDNA is not available: " + (message.map { cText($0) } ?? "ICU failed")
                return nil
            }
            if length > capacity { capacity = length; continue }
            return (String(decoding: out[..<length], as: UTF8.self), errors)
        }
    }

    /// `name` with capital sharp s (U+1E9E) as ß: UTS #46 rev. 33 (Unicode 16, what the URL
    /// Standard follows) maps it so, where ICU 72's tables still map it to "ss" (`FAẞ.de` is
    /// `xn--fa-hia.de`, not `fass.de`): of rev. 33's changes, the only one where ICU 72 gave
    /// another name rather than refusing it (WPTURLTests.testIDNAAgainstUTS46Revision33).
    static func mappingCapitalSharpS(_ name: [UInt8]) -> [UInt8] {
        guard name.count >= 3, name.contains(0xE1) else { return name }
        var out: [UInt8] = []
        out.reserveCapacity(name.count)
        var i = 0
        while i < name.count {
            if name[i] == 0xE1, i + 2 < name.count, name[i + 1] == 0xBA, name[i + 2] == 0x9E {
                out += [0xC3, 0x9F]
                i += 3
            } else {
                out.append(name[i])
                i += 1
            }
        }
        return out
    }

    /// Which label breaks which rule, for the message.
    static func explain(_ name: String, _ errors: UInt32) -> String {
        let dots: Set<UInt32> = [0x2E, 0x3002, 0xFF0E, 0xFF61]
        let labels = name.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: { dots.contains($0.value) })
        var ignored = ""
        for label in labels {
            let text = String(String.UnicodeScalarView(label))
            guard let (_, labelErrors) = run(text, toUnicode: false, &ignored) else { continue }
            let counted = labelErrors & ~ignoredErrors & ~0x800  // Bidi is a rule of the whole name
            guard counted != 0 else { continue }
            return "the host \"\(name)\" is not a valid domain: the label \"\(text)\" " + rule(counted, label: label)
        }
        return "the host \"\(name)\" is not a valid domain: it " + rule(errors, label: nil)
    }

    static func rule(_ errors: UInt32, label: Substring.UnicodeScalarView?) -> String {
        if errors & 0x80 != 0 {
            var ignored = ""
            if let label, let bad = label.first(where: { c in
                (run(String(c), toUnicode: false, &ignored)?.1 ?? 0) & 0x80 != 0
            }) {
                return "holds U+\(hexDigitsUpper(bad.value)), which IDNA (UTS #46) disallows"
            }
            return "holds a code point IDNA (UTS #46) disallows"
        }
        if errors & 0x100 != 0 { return "is not valid Punycode" }
        if errors & 0x400 != 0 { return "is Punycode for text that is not a valid label (not NFC, or not mapped)" }
        if errors & 0x200 != 0 { return "is Punycode for text with a dot in it" }
        if errors & 0x40 != 0 { return "starts with a combining mark" }
        if errors & 0x1000 != 0 { return "has a zero-width joiner or non-joiner where the CONTEXTJ rule (RFC 5892) forbids it" }
        if errors & 0x800 != 0 { return "breaks the Bidi rule (RFC 5893) for right-to-left labels" }
        return "breaks a UTS #46 rule (ICU error bits 0x\(String(errors, radix: 16)))"
    }
}
