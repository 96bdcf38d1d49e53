/// The tree being built: maps keep first-seen key order; arrays are sparse until the end.
final class QueryTreeNode {
    enum Slot { case key(ByteString), index(Int), append }
    enum Kind { case map, array, leaf(PekitValue) }

    var kind: Kind
    var keys: [ByteString] = []
    var children: [ByteString: QueryTreeNode] = [:]
    var items: [Int: QueryTreeNode] = [:]
    var nextIndex = 0

    init(_ kind: Kind) { self.kind = kind }
    static func map() -> QueryTreeNode { QueryTreeNode(.map) }

    /// An array turned into a map (an index past the limit, or a key on an array): its
    /// indices become keys, as qs does.
    func makeMap() {
        guard case .array = kind else { return }
        for index in items.keys.sorted() {
            let key = ByteString(String(index))
            keys.append(key)
            children[key] = items[index]
        }
        items = [:]
        kind = .map
    }

    func resolve(_ slot: Slot) -> Slot {
        switch (kind, slot) {
        case (.array, .key):
            makeMap(); return slot
        case (.map, .index(let n)):
            return .key(ByteString(String(n)))
        case (.map, .append):
            return .key(ByteString(String(keys.count)))
        case (.leaf, _):
            kind = .map; return resolve(slot)
        default:
            return slot
        }
    }

    func get(_ slot: Slot) -> QueryTreeNode? {
        switch slot {
        case .key(let key): return children[key]
        case .index(let n): return items[n]
        case .append: return nil
        }
    }

    func put(_ slot: Slot, _ node: QueryTreeNode) {
        switch slot {
        case .key(let key):
            if children[key] == nil { keys.append(key) }
            children[key] = node
        case .index(let n):
            items[n] = node
            nextIndex = max(nextIndex, n + 1)
        case .append:
            items[nextIndex] = node
            nextIndex += 1
        }
    }

    func child(_ slot: Slot, nextIsIndex: Bool, duplicates: QueryParser.Duplicates) -> QueryTreeNode {
        if case .leaf = kind { kind = nextIsIndex ? .array : .map }
        let slot = resolve(slot)
        if let existing = get(slot) {
            if case .leaf(let old) = existing.kind {
                if duplicates == .combine {
                    // qs: a plain value and a nested one under the same key make an array of both.
                    let nested = QueryTreeNode(nextIsIndex ? .array : .map)
                    existing.kind = .array
                    existing.items = [0: QueryTreeNode(.leaf(old)), 1: nested]
                    existing.nextIndex = 2
                    return nested
                }
                existing.kind = nextIsIndex ? .array : .map
            }
            return existing
        }
        let node = QueryTreeNode(nextIsIndex ? .array : .map)
        put(slot, node)
        return node
    }

    func set(_ slot: Slot, leaf value: PekitValue, duplicates: QueryParser.Duplicates) {
        let slot = resolve(slot)
        guard let existing = get(slot) else { return put(slot, QueryTreeNode(.leaf(value))) }
        switch duplicates {
        case .first: return
        case .last: existing.kind = .leaf(value); existing.keys = []; existing.children = [:]; existing.items = [:]
        case .combine:
            switch existing.kind {
            case .leaf(let old):
                existing.kind = .array
                existing.items = [0: QueryTreeNode(.leaf(old)), 1: QueryTreeNode(.leaf(value))]
                existing.nextIndex = 2
            case .array:
                existing.put(.append, QueryTreeNode(.leaf(value)))
            case .map:
                existing.put(.key(ByteString(String(existing.keys.count))), QueryTreeNode(.leaf(value)))
            }
        }
    }

    func value(compact: Bool) -> PekitValue {
        switch kind {
        case .leaf(let value): return value
        case .array:
            let indices = items.keys.sorted()
            if compact || indices.last.map({ $0 == indices.count - 1 }) ?? true {
                return .array(indices.compactMap { items[$0]?.value(compact: compact) })
            }
            return .map(PekitMap(ordered: indices.compactMap { i in items[i].map { .init(key: ByteString(String(i)), value: $0.value(compact: compact)) } }))
        case .map:
            return .map(PekitMap(ordered: keys.compactMap { key in children[key].map { .init(key: key, value: $0.value(compact: compact)) } }))
        }
    }
}
