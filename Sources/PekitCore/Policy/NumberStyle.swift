/// How a policy writes a number into a query: as the language of its backend's client writes it.
///
/// Presets follow the peers (vectors in `Tests/PekitCoreTests/Fixtures/number-vectors.json`, made
/// by `make_number_vectors.py` from Python and Node): `javascript` is ECMAScript's
/// Number::toString (qs, jQuery.param, querystring: `1e20` is `100000000000000000000`, `1e-7` is
/// `1e-7`, and integers past 2^53 are the double JavaScript holds); `python` is `str()` (requests:
/// integers exact, `1e+16`, `1e-05`, `3.0`); `swift` is Swift's `description` (Alamofire: `3.0`,
/// `1e+20`); `shortest`, the default, is the shortest text that reads back, integral values
/// without `.0`. `custom` takes a closure for any other rule.
public enum NumberStyle: Sendable {
    case shortest
    case javascript
    case python
    case swift
    /// The text for an integer or a double (`PekitValue.integer` or `.number`).
    case custom(@Sendable (PekitValue) -> String)

    /// The preset names a policy file may give (`numbers = "javascript"`).
    public static let names = ["shortest", "javascript", "python", "swift"]

    public init?(name: String) {
        switch name {
        case "shortest": self = .shortest
        case "javascript": self = .javascript
        case "python": self = .python
        case "swift": self = .swift
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .shortest: return "shortest"
        case .javascript: return "javascript"
        case .python: return "python"
        case .swift: return "swift"
        case .custom: return "custom"
        }
    }

    /// An integer as this style writes it.
    public func text(_ n: Int64) -> String {
        switch self {
        case .javascript where n.magnitude > 1 << 53: return Self.javascript(Double(n))
        case .custom(let write): return write(.integer(n))
        default: return String(n)
        }
    }

    /// A double as this style writes it.
    public func text(_ x: Double) -> String {
        switch self {
        case .shortest: return QueryText.formatNumber(x)
        case .javascript: return Self.javascript(x)
        case .python: return Self.python(x)
        case .swift: return x.description
        case .custom(let write): return write(.number(x))
        }
    }

    /// The shortest digits that read back as `x` (no sign, no leading or trailing zeros) and the
    /// decimal point's place: x = 0.d₁d₂… × 10^point. Swift's `description` already holds the
    /// shortest digits; only their layout differs between languages.
    static func digits(_ x: Double) -> (digits: [UInt8], point: Int) {
        let text = Array(x.magnitude.description.utf8)
        let e = text.firstIndex(of: 0x65)  // "e"
        let mantissa = text[..<(e ?? text.count)]
        let exponent = e.flatMap { Int(String(decoding: text[($0 + 1)...], as: UTF8.self)) } ?? 0
        let dot = mantissa.firstIndex(of: 0x2E) ?? mantissa.endIndex
        var digits = Array(mantissa.filter { $0 != 0x2E })
        var point = dot - mantissa.startIndex + exponent
        while digits.first == 0x30 { digits.removeFirst(); point -= 1 }
        while digits.last == 0x30 { digits.removeLast() }
        return (digits, point)
    }

    private static func zeros(_ n: Int) -> String { String(repeating: "0", count: max(0, n)) }

    /// ECMAScript Number::toString(10) (§6.1.6.1.20).
    static func javascript(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x == 0 { return "0" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        let (digits, n) = digits(x)
        let d = String(decoding: digits, as: UTF8.self), k = digits.count
        let sign = x < 0 ? "-" : ""
        if k <= n && n <= 21 { return sign + d + zeros(n - k) }
        if 0 < n && n <= 21 { return sign + d.prefix(n) + "." + d.dropFirst(n) }
        if -6 < n && n <= 0 { return sign + "0." + zeros(-n) + d }
        let e = n - 1
        return sign + d.prefix(1) + (k > 1 ? "." + d.dropFirst() : "") + "e" + (e < 0 ? "-" : "+") + String(e.magnitude)
    }

    /// Python's `repr`/`str` of a float (float_repr_style "short").
    static func python(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        let sign = x.sign == .minus ? "-" : ""
        if x == 0 { return sign + "0.0" }
        let (digits, n) = digits(x)
        let d = String(decoding: digits, as: UTF8.self), k = digits.count
        let e = n - 1
        if -4 <= e && e < 16 {
            if n <= 0 { return sign + "0." + zeros(-n) + d }
            if n >= k { return sign + d + zeros(n - k) + ".0" }
            return sign + d.prefix(n) + "." + d.dropFirst(n)
        }
        let exponent = String(e.magnitude)
        return sign + d.prefix(1) + (k > 1 ? "." + d.dropFirst() : "") + "e" + (e < 0 ? "-" : "+") + (exponent.count < 2 ? "0" : "") + exponent
    }
}
