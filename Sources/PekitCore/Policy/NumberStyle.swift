/// How a policy writes a number into a query: as the language of its backend's client writes it.
///
/// Presets follow the peers (vectors in `Tests/PekitCoreTests/Fixtures/number-vectors.json`, made
/// by `make_number_vectors.py` from Python and Node): `javascript` is ECMAScript's
/// Number::toString (qs, jQuery.param, querystring: `1e20` is `100000000000000000000`, `1e-7` is
/// `1e-7`, and integers past 2^53 are the double JavaScript holds); `python` is `str()` (requests:
/// integers exact, `1e+16`, `1e-05`, `3.0`); `objc` is NSNumber's `description` on Apple's
/// platforms, which AFNetworking and Alamofire write (`%0.16g` for a double, as Apple documents
/// `description(withLocale:)`: `3`, `1e+20`, `0.3` for 0.1 + 0.2; integers exact); `swift` is
/// Swift's own `description`; `php` is PHP's conversion of a float with its default `precision`
/// of 14, as `http_build_query` writes it (`1.0E+20`, `0.33333333333333`, integers past Int64
/// are the float `json_decode` makes); (`3.0`, `1e+20`); `shortest`, the default, is the shortest text
/// that reads back, integral values without `.0`. `custom` takes a closure for any other rule.
public enum NumberStyle: Sendable {
    /// The shortest text that reads back; integral values without `.0`.
    case shortest
    /// ECMAScript's Number::toString (qs, jQuery.param, querystring).
    case javascript
    /// Python's `str()` (requests).
    case python
    /// NSNumber's `description` on Apple's platforms (AFNetworking, Alamofire's URLEncoding).
    case objc
    /// PHP's float conversion at `precision` 14 (http_build_query).
    case php
    /// Swift's own `description` (Alamofire's URLEncodedFormEncoder).
    case swift
    /// The text for an integer or a double (`PekitValue.integer`, `.bigInteger` or `.number`).
    case custom(@Sendable (PekitValue) -> String)

    /// The preset names a policy file may give (`numbers = "javascript"`).
    public static let names = ["shortest", "javascript", "python", "objc", "php", "swift"]

    /// The preset called `name` (one of `names`), or nil.
    public init?(name: String) {
        switch name {
        case "shortest": self = .shortest
        case "javascript": self = .javascript
        case "python": self = .python
        case "objc": self = .objc
        case "php": self = .php
        case "swift": self = .swift
        default: return nil
        }
    }

    /// The preset's name; `custom` for a closure.
    public var name: String {
        switch self {
        case .shortest: return "shortest"
        case .javascript: return "javascript"
        case .python: return "python"
        case .objc: return "objc"
        case .php: return "php"
        case .swift: return "swift"
        case .custom: return "custom"
        }
    }

    /// Whether `text(n)` is `n` in plain decimal (what the flattener writes without a string).
    func writesIntegersInDecimal(_ n: Int64) -> Bool {
        switch self {
        case .javascript: return n.magnitude <= 1 << 53
        case .custom: return false
        default: return true
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

    /// An integer outside Int64 (its decimal digits, `PekitValue.bigInteger`) as this style
    /// writes it: JavaScript holds it as the nearest double; the others keep every digit, as
    /// Python's `int` and Foundation's `NSDecimalNumber` do.
    public func text(bigInteger digits: String) -> String {
        switch self {
        case .javascript: return Self.javascript(Double(digits) ?? .nan)
        case .php: return Self.php(Double(digits) ?? .nan)
        case .custom(let write): return write(.bigInteger(digits))
        default: return digits
        }
    }

    /// A double as this style writes it.
    public func text(_ x: Double) -> String {
        switch self {
        case .shortest: return QueryText.formatNumber(x)
        case .javascript: return Self.javascript(x)
        case .python: return Self.python(x)
        case .objc: return Self.printf(x, significant: 16)
        case .php: return Self.php(x)
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

    /// C's `%.{significant}g` (or another conversion), by the C library itself (its rounding is exact).
    static func printf(_ x: Double, significant: Int, conversion: Character = "g") -> String {
        CLibrary.format(x, precision: significant, conversion: conversion) ?? x.description
    }

    /// PHP's float to string (zend_gcvt with `precision` 14): the digits rounded to 14, then
    /// plain unless the exponent is below -4 or past 14, where `1.0E+20` has at least one decimal.
    static func php(_ x: Double) -> String {
        if x.isNaN { return "NAN" }
        if x.isInfinite { return x < 0 ? "-INF" : "INF" }
        let sign = x.sign == .minus ? "-" : ""
        if x == 0 { return sign + "0" }
        // "%.13e" gives 14 significant digits, rounded exactly by the C library: d.ddddddddddddde±X.
        let e = Array(printf(x.magnitude, significant: 13, conversion: "e").utf8)
        guard let at = e.firstIndex(of: 0x65), let exponent = Int(String(decoding: e[(at + 1)...], as: UTF8.self)) else { return x.description }
        var digits = e[..<at].filter { $0 != 0x2E }
        while digits.count > 1 && digits.last == 0x30 { digits.removeLast() }
        let d = String(decoding: digits, as: UTF8.self)
        let point = exponent + 1  // x = 0.d₁d₂… × 10^point
        if point < -3 || point > 14 {
            let rest = d.dropFirst()
            return sign + d.prefix(1) + "." + (rest.isEmpty ? "0" : rest) + "E" + (exponent < 0 ? "-" : "+") + String(exponent.magnitude)
        }
        if point <= 0 { return sign + "0." + zeros(-point) + d }
        if point >= d.count { return sign + d + zeros(point - d.count) }
        return sign + d.prefix(point) + "." + d.dropFirst(point)
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
