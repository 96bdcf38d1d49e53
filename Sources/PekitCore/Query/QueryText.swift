/// Scalars as a query writes them, and what counts as nested.
package enum QueryText {
    static func scalar(_ value: PekitValue) -> ByteString? {
        switch value {
        case .string(let s): return s
        case .integer(let n): return ByteString(String(n))
        case .bigInteger(let digits): return ByteString(digits)
        case .number(let x): return ByteString(formatNumber(x))
        case .boolean(let b): return ByteString(b ? "true" : "false")
        default: return nil
        }
    }

    /// Floats as the shortest text that reads back as the same number; integral ones without ".0".
    package static func formatNumber(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    static func isNested(_ value: PekitValue) -> Bool {
        switch value {
        case .array, .set, .map: return true
        default: return false
        }
    }
}
