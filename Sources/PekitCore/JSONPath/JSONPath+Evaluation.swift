/// RFC 9535's semantics (§2.3 to §2.5): each segment maps the nodes it is given to the nodes its
/// selectors select, in order; a filter's comparisons and functions work on values or "Nothing".
///
/// Every node a selector looks at, and every step of a `match()` or `search()`, is charged to
/// the walk's `WorkBudget`: filters nested in filters multiply the nodes visited, and a caller
/// that runs a stranger's query says how much work it may take.
extension JSONPath {
    struct Walk {
        let root: PekitValue
        var budget: WorkBudget
        /// Patterns compiled so far (nil: not an I-Regexp): a filter runs its `match()` once a
        /// node, most often with the same pattern.
        var regexes: [String: IRegexp?] = [:]

        init(root: PekitValue, budget: WorkBudget) {
            self.root = root
            self.budget = budget
        }

        mutating func apply(_ segments: [Segment], to input: [PekitValue]) throws(WorkBudget.Exceeded) -> [PekitValue] {
            var nodes = input
            for segment in segments {
                var next: [PekitValue] = []
                for node in nodes {
                    if segment.descendant {
                        try visit(node) { (walk: inout Walk, d: PekitValue) throws(WorkBudget.Exceeded) in
                            for selector in segment.selectors { try walk.select(selector, from: d, into: &next) }
                        }
                    } else {
                        for selector in segment.selectors { try select(selector, from: node, into: &next) }
                    }
                }
                nodes = next
                if nodes.isEmpty { break }
            }
            return nodes
        }

        /// The node and its descendants, each before its children, children in order (§2.5.2.2).
        mutating func visit(_ node: PekitValue, _ body: (inout Walk, PekitValue) throws(WorkBudget.Exceeded) -> Void) throws(WorkBudget.Exceeded) {
            try budget.spend()
            try body(&self, node)
            for child in JSONPath.children(node) { try visit(child, body) }
        }

        mutating func select(_ selector: Selector, from node: PekitValue, into out: inout [PekitValue]) throws(WorkBudget.Exceeded) {
            try budget.spend()
            switch selector {
            case .name(let name):
                guard case .map(let map) = node else { return }
                try budget.spend(map.entries.count)
                if let entry = map.entries.first(where: { $0.key == name }) { out.append(entry.value) }
            case .wildcard:
                let children = JSONPath.children(node)
                try budget.spend(children.count)
                out += children
            case .index(let index):
                guard case .array(let items) = node else { return }
                let n = Int64(items.count)
                let k = index < 0 ? n + index : index
                if k >= 0 && k < n { out.append(items[Int(k)]) }
            case .slice(let start, let end, let step):
                guard case .array(let items) = node else { return }
                let indices = JSONPath.sliceIndices(count: Int64(items.count), start: start, end: end, step: step ?? 1)
                try budget.spend(indices.count)
                for k in indices { out.append(items[Int(k)]) }
            case .filter(let logical):
                for child in JSONPath.children(node) where try test(logical, current: child) { out.append(child) }
            }
        }

        // MARK: Filters

        mutating func test(_ logical: Logical, current: PekitValue) throws(WorkBudget.Exceeded) -> Bool {
            try budget.spend()
            switch logical {
            case .or(let terms):
                for term in terms where try test(term, current: current) { return true }
                return false
            case .and(let terms):
                for term in terms where try !test(term, current: current) { return false }
                return true
            case .not(let inner): return try !test(inner, current: current)
            case .exists(let query): return try !nodes(query, current: current).isEmpty
            case .function(let f): return try call(f, current: current) == .logical(true)
            case .compare(let a, let op, let b):
                let left = try value(a, current: current), right = try value(b, current: current)
                try budget.spend(JSONPath.size(left) + JSONPath.size(right))
                return JSONPath.compare(left, op, right)
            }
        }

        mutating func nodes(_ query: Query, current: PekitValue) throws(WorkBudget.Exceeded) -> [PekitValue] {
            try apply(query.segments, to: [query.relative ? current : root])
        }

        /// A comparable's value, or nil for Nothing (a singular query that selects no node).
        mutating func value(_ c: Comparable, current: PekitValue) throws(WorkBudget.Exceeded) -> PekitValue? {
            switch c {
            case .literal(let v): return v
            case .query(let q): return try nodes(q, current: current).first
            case .function(let f):
                if case .value(let v) = try call(f, current: current) { return v }
                return nil
            }
        }
    }

    static func children(_ node: PekitValue) -> [PekitValue] {
        switch node {
        case .array(let items), .set(let items): return items
        case .map(let map): return map.entries.map(\.value)
        default: return []
        }
    }

    /// What comparing a value costs, by its top level: a list's items, an object's members each
    /// looked up in the other's (a deep comparison walks on into them).
    static func size(_ value: PekitValue?) -> Int {
        switch value {
        case .array(let items)?, .set(let items)?: return items.count
        case .map(let map)?: let n = min(map.entries.count, 1 << 20); return n * n
        case .string(let s)?: return s.count / 64
        default: return 0
        }
    }

    /// §2.3.4.2.2: the bounds normalised and clamped for the step's direction.
    static func sliceIndices(count n: Int64, start: Int64?, end: Int64?, step: Int64) -> [Int64] {
        guard step != 0 else { return [] }
        func normalize(_ k: Int64) -> Int64 { k >= 0 ? k : n + k }
        var out: [Int64] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), n), upper = min(max(normalize(end ?? n), 0), n)
            var k = lower
            while k < upper { out.append(k); k += step }
        } else {
            let upper = min(max(normalize(start ?? n - 1), -1), n - 1), lower = min(max(normalize(end ?? -n - 1), -1), n - 1)
            var k = upper
            while lower < k { out.append(k); k += step }
        }
        return out
    }

    /// §2.3.5.2.2: Nothing equals only Nothing; `<` holds only between two numbers or two strings.
    static func compare(_ a: PekitValue?, _ op: Comparison, _ b: PekitValue?) -> Bool {
        switch op {
        case .eq: return equal(a, b)
        case .ne: return !equal(a, b)
        case .lt: return less(a, b)
        case .le: return less(a, b) || equal(a, b)
        case .gt: return less(b, a)
        case .ge: return less(b, a) || equal(a, b)
        }
    }

    static func equal(_ a: PekitValue?, _ b: PekitValue?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if let x = number(a), let y = number(b) { return x == y }
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.null, .null): return true
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.map(let x), .map(let y)):
            return x.entries.count == y.entries.count && x.entries.allSatisfy { e in
                y.entries.first { $0.key == e.key }.map { equal(e.value, $0.value) } ?? false
            }
        default: return false
        }
    }

    static func less(_ a: PekitValue?, _ b: PekitValue?) -> Bool {
        guard let a, let b else { return false }
        if let x = number(a), let y = number(b) { return x < y }
        // Strings by Unicode scalar values: UTF-8's byte order is the same order.
        if case .string(let x) = a, case .string(let y) = b { return x < y }
        return false
    }

    static func number(_ v: PekitValue) -> Double? {
        switch v {
        case .integer(let n): return Double(n)
        case .number(let x): return x
        case .bigInteger(let digits): return Double(digits)
        default: return nil
        }
    }
}
