/// Domain names between their Unicode and ASCII (Punycode) forms, as the URL Standard defines
/// them (§3.3): UTS #46 processing, non-transitional (`faß.de` is `xn--fa-hia.de`), CheckBidi and
/// CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off — so `☃.net`,
/// `-x.com` and `a_b.com` are hosts, as in every browser.
///
/// The work is pekit's own UTS #46 (UTS46.swift: revision 33's rules on the Unicode 17.0.0
/// tables that scripts/idna-tables writes, its own NFC and Punycode), with no ICU. A name that is ASCII is only
/// lower-cased, as WPT's current tests expect of the Standard (`xn--a` is left as it is).
/// libidn2 is not used: it implements IDNA2008, which refuses symbols and leading hyphens the
/// URL Standard accepts.
public enum IDNA {
    /// The Unicode version of the tables IDNA uses (UTS #46's mapping, NFC, the bidi and joining
    /// classes), as `scripts/idna-tables` generated them.
    public static let unicodeVersion = UTS46Tables.unicodeVersion

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
        var name = name, forbidden: Unicode.Scalar?
        guard let host = name.withUTF8({ URLHost.parse(buffer: $0, special: true, wellFormed: true, failure: &failure, forbidden: &forbidden) }) else {
            throw Failure(description: failure)
        }
        return host.description
    }

    /// The Unicode form of a host (UTS #46 ToUnicode of its ASCII form): `"xn--fsqu00a.xn--fiqs8s"`
    /// → `"例子.中国"`. Addresses come back as `domainToASCII` gives them.
    /// - Throws: `Failure` when `name` is not a host.
    public static func domainToUnicode(_ name: String) throws -> String {
        var failure = ""
        guard let host = URLHost.parse(Array(name.unicodeScalars), special: true, failure: &failure) else { throw Failure(description: failure) }
        guard case .domain(let ascii) = host, needsProcessing(ascii.unicodeScalars) else { return host.description }
        guard let unicode = toUnicode(ascii, &failure) else { throw Failure(description: failure) }
        return unicode
    }

    /// The Unicode form of one `xn--` label (itself when it is not valid Punycode).
    static func labelToUnicode(_ label: String) -> String {
        var failure = ""
        return toUnicode(label, &failure) ?? label
    }

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

    /// UTS #46 to Unicode of a name; nil with a message naming the label and the rule it breaks.
    static func toUnicode(_ name: String, _ failure: inout String) -> String? {
        var utf8 = name
        switch utf8.withUTF8({ UTS46.process(utf8: $0, UTS46.unicode) }) {
        case .success(let unicode): return unicode
        case .failure(let problem):
            failure = explain(name, problem)
            return nil
        }
    }

    /// UTS #46 to ASCII of a name in well-formed UTF-8: what `body` makes of the ASCII bytes,
    /// which live only while it runs, or the failure naming the label and the rule it breaks.
    static func withASCII<R>(utf8 name: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> Result<R, Failure> {
        let made = UTS46.process(utf8: name) { labels -> R? in
            withScratch(of: UInt8.self, count: UTS46.asciiCapacity(labels)) { out -> R? in
                UTS46.writeASCII(labels, into: out).map { body(UnsafeBufferPointer(rebasing: out[..<$0])) }
            }
        }
        switch made {
        case .success(let result?): return .success(result)
        case .success(nil):
            return .failure(Failure(description: "the host \"\(String(decoding: name, as: UTF8.self))\" is not a valid domain: a label is too long for Punycode"))
        case .failure(let problem): return .failure(Failure(description: explain(String(decoding: name, as: UTF8.self), problem)))
        }
    }

    /// The message for a name that breaks a rule: the label as it was written (the name split
    /// at the dots UTS #46 maps to '.'), and the rule.
    static func explain(_ name: String, _ problem: UTS46.Problem) -> String {
        let dots: Set<UInt32> = [0x2E, 0x3002, 0xFF0E, 0xFF61]
        let labels = name.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: { dots.contains($0.value) })
        guard problem.labelIndex < labels.count else {
            return "the host \"\(name)\" is not a valid domain: a label " + problem.reason
        }
        let label = String(String.UnicodeScalarView(labels[problem.labelIndex]))
        return "the host \"\(name)\" is not a valid domain: the label \"\(label)\" " + problem.reason
    }
}
