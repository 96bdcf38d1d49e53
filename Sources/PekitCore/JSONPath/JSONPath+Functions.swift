/// The function extensions of RFC 9535 §2.4: `length`, `count`, `match`, `search`, `value`.
extension JSONPath {
    /// A function's result: a value (nil: Nothing) or a logical one.
    enum FunctionResult: Equatable { case value(PekitValue?), logical(Bool) }

    static func call(_ f: Function, current: PekitValue, root: PekitValue) -> FunctionResult {
        func argumentValue(_ k: Int) -> PekitValue? {
            switch f.arguments[k] {
            case .literal(let v): return v
            case .query(let q): return nodes(q, current: current, root: root).first
            case .function(let inner):
                if case .value(let v) = call(inner, current: current, root: root) { return v }
                return nil
            case .logical: return nil
            }
        }
        func argumentNodes(_ k: Int) -> [PekitValue] {
            if case .query(let q) = f.arguments[k] { return nodes(q, current: current, root: root) }
            return []
        }
        switch f.name {
        case .length:
            switch argumentValue(0) {
            case .string(let s)?: return .value(.integer(Int64(s.description.unicodeScalars.count)))
            case .array(let items)?: return .value(.integer(Int64(items.count)))
            case .map(let map)?: return .value(.integer(Int64(map.entries.count)))
            default: return .value(nil)
            }
        case .count:
            return .value(.integer(Int64(argumentNodes(0).count)))
        case .value:
            let found = argumentNodes(0)
            return .value(found.count == 1 ? found[0] : nil)
        case .match, .search:
            guard case .string(let subject)? = argumentValue(0), case .string(let pattern)? = argumentValue(1),
                  let regex = iRegexp(pattern.description) else { return .logical(false) }
            let text = subject.description
            // Matched by code points, as I-Regexp is defined (RFC 9485), not by grapheme clusters.
            let found = f.name == .match ? (try? regex.wholeMatch(in: text)) != nil : (try? regex.firstMatch(in: text)) != nil
            return .logical(found)
        }
    }

    /// An I-Regexp (RFC 9485) as a Swift regular expression: `.` outside a class matches any
    /// code point but CR and LF (§5.3); nil for a pattern that does not compile.
    static func iRegexp(_ pattern: String) -> Regex<AnyRegexOutput>? {
        var out = "", inClass = false, escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped { out.unicodeScalars.append(scalar); escaped = false; continue }
            switch scalar {
            case "\\": escaped = true; out.append("\\")
            case "[": inClass = true; out.append("[")
            case "]": inClass = false; out.append("]")
            case "." where !inClass: out += "[^\\n\\r]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if escaped { return nil }
        return (try? Regex(out))?.matchingSemantics(.unicodeScalar)
    }
}
