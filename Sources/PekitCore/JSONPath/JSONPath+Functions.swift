/// The function extensions of RFC 9535 §2.4: `length`, `count`, `match`, `search`, `value`.
extension JSONPath {
    /// A function's result: a value (nil: Nothing) or a logical one.
    enum FunctionResult: Equatable { case value(PekitValue?), logical(Bool) }
}

extension JSONPath.Walk {
    mutating func call(_ f: JSONPath.Function, current: PekitValue) throws(WorkBudget.Exceeded) -> JSONPath.FunctionResult {
        func argumentValue(_ walk: inout JSONPath.Walk, _ k: Int) throws(WorkBudget.Exceeded) -> PekitValue? {
            switch f.arguments[k] {
            case .literal(let v): return v
            case .query(let q): return try walk.nodes(q, current: current).first
            case .function(let inner):
                if case .value(let v) = try walk.call(inner, current: current) { return v }
                return nil
            case .logical: return nil
            }
        }
        func argumentNodes(_ walk: inout JSONPath.Walk, _ k: Int) throws(WorkBudget.Exceeded) -> [PekitValue] {
            if case .query(let q) = f.arguments[k] { return try walk.nodes(q, current: current) }
            return []
        }
        switch f.name {
        case .length:
            switch try argumentValue(&self, 0) {
            case .string(let s)?:
                try budget.spend(s.count / 64)
                return .value(.integer(Int64(s.description.unicodeScalars.count)))
            case .array(let items)?: return .value(.integer(Int64(items.count)))
            case .map(let map)?: return .value(.integer(Int64(map.entries.count)))
            default: return .value(nil)
            }
        case .count:
            return .value(.integer(Int64(try argumentNodes(&self, 0).count)))
        case .value:
            let found = try argumentNodes(&self, 0)
            return .value(found.count == 1 ? found[0] : nil)
        case .match, .search:
            // §2.4.6, §2.4.7: a pattern that is not a valid I-Regexp matches nothing.
            guard case .string(let subject)? = try argumentValue(&self, 0), case .string(let pattern)? = try argumentValue(&self, 1) else {
                return .logical(false)
            }
            let text = pattern.description
            let regex: IRegexp?
            if let compiled = regexes[text] { regex = compiled } else {
                try budget.spend(pattern.count)
                regex = IRegexp(text)
                regexes[text] = regex
            }
            guard let regex else { return .logical(false) }
            return .logical(try regex.matches(subject.description, whole: f.name == .match, budget: &budget))
        }
    }
}
