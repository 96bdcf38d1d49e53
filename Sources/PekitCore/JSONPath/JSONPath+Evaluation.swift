/// RFC 9535's semantics (§2.3 to §2.5): each segment maps the nodes it is given to the nodes its
/// selectors select, in order; a filter's comparisons and functions work on values or "Nothing".
extension JSONPath {
    static func apply(_ segments: [Segment], to input: [PekitValue], root: PekitValue) -> [PekitValue] {
        var nodes = input
        for segment in segments {
            var next: [PekitValue] = []
            for node in nodes {
                if segment.descendant {
                    visit(node) { d in for selector in segment.selectors { select(selector, from: d, root: root, into: &next) } }
                } else {
                    for selector in segment.selectors { select(selector, from: node, root: root, into: &next) }
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// The node and its descendants, each before its children, children in order (§2.5.2.2).
    static func visit(_ node: PekitValue, _ body: (PekitValue) -> Void) {
        body(node)
        for child in children(node) { visit(child, body) }
    }

    static func children(_ node: PekitValue) -> [PekitValue] {
        switch node {
        case .array(let items), .set(let items): return items
        case .map(let map): return map.entries.map(\.value)
        default: return []
        }
    }

    static func select(_ selector: Selector, from node: PekitValue, root: PekitValue, into out: inout [PekitValue]) {
        switch selector {
        case .name(let name):
            if case .map(let map) = node, let entry = map.entries.first(where: { $0.key == name }) { out.append(entry.value) }
        case .wildcard:
            out += children(node)
        case .index(let index):
            guard case .array(let items) = node else { return }
            let n = Int64(items.count)
            let k = index < 0 ? n + index : index
            if k >= 0 && k < n { out.append(items[Int(k)]) }
        case .slice(let start, let end, let step):
            guard case .array(let items) = node else { return }
            for k in sliceIndices(count: Int64(items.count), start: start, end: end, step: step ?? 1) { out.append(items[Int(k)]) }
        case .filter(let logical):
            for child in children(node) where test(logical, current: child, root: root) { out.append(child) }
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

    // MARK: Filters

    static func test(_ logical: Logical, current: PekitValue, root: PekitValue) -> Bool {
        switch logical {
        case .or(let terms): return terms.contains { test($0, current: current, root: root) }
        case .and(let terms): return terms.allSatisfy { test($0, current: current, root: root) }
        case .not(let inner): return !test(inner, current: current, root: root)
        case .exists(let query): return !nodes(query, current: current, root: root).isEmpty
        case .function(let f): return call(f, current: current, root: root) == .logical(true)
        case .compare(let a, let op, let b):
            return compare(value(a, current: current, root: root), op, value(b, current: current, root: root))
        }
    }

    static func nodes(_ query: Query, current: PekitValue, root: PekitValue) -> [PekitValue] {
        apply(query.segments, to: [query.relative ? current : root], root: root)
    }

    /// A comparable's value, or nil for Nothing (a singular query that selects no node).
    static func value(_ c: Comparable, current: PekitValue, root: PekitValue) -> PekitValue? {
        switch c {
        case .literal(let v): return v
        case .query(let q): return nodes(q, current: current, root: root).first
        case .function(let f):
            if case .value(let v) = call(f, current: current, root: root) { return v }
            return nil
        }
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
