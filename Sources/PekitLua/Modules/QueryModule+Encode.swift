import CLua
import CLuaShim
import PekitCore

/// `pekit.query.encode` over the Lua tables themselves: no `PekitValue` is made of them; each
/// pair is written into the query as the walk finds it (the flattener's key rules, a
/// `QueryWriter`), and strings are read where Lua keeps them.
///
/// The walk takes the shapes parameters have (maps, ordered maps, arrays, pekit.null, strings,
/// numbers, booleans). Anything else (a set, a list of {key, value} pairs at the top,
/// comma-joined arrays, an order by encoded bytes or by a function, a key that is neither a
/// string nor a number, two keys with one text, nesting past the depth limit, a value of another
/// type) ends it with nil, and the caller converts the value as before: the same query, or the
/// same error naming the place.
extension QueryModule {
    private struct GeneralPath: Error {}

    static func directQueryString(_ runtime: LuaRuntime, at index: Int32, policy: Policy) throws -> ByteString? {
        switch policy.order {
        case .given, .ascending: break
        case .bytes, .pairs, .custom: return nil
        }
        if case .comma = policy.arrays { return nil }
        let stack = runtime.stack
        let table = stack.absolute(index)
        guard stack.type(table) == LUA_TTABLE else { return nil }
        let marker = runtime.marker(of: table)
        // A plain table at the top that is a sequence is a list of {key, value} pairs: left to
        // the general path, as any other marked table is.
        guard marker == .ordered || (marker == nil && runtime.sequenceLength(table) == nil) else { return nil }
        let writer = QueryWriter(policy: policy)
        var flattener = Flattener(policy: policy, sink: writer)
        let base = stack.top
        defer { stack.setTop(base) }
        do {
            try forEachEntry(runtime, table, sorted: marker == nil || isAscending(policy)) { name in
                try flattener.under(top: ByteString(bytes: name)) { try walk(runtime, stack.top, depth: 1, into: &$0) }
            }
        } catch is GeneralPath {
            return nil
        }
        return ByteString(writer.finish())
    }

    /// Flattens the value at `index` under the flattener's current key.
    private static func walk(_ runtime: LuaRuntime, _ index: Int32, depth: Int, into f: inout Flattener) throws {
        let stack = runtime.stack, L = stack.L
        switch stack.type(index) {
        case LUA_TSTRING:
            var length = 0
            guard let pointer = lua_tolstring(L, index, &length) else { throw GeneralPath() }
            // One string reached through many keys is written each time (see LuaValues).
            if length > 64 { try MemoryBudget.charge(length) }
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) { f.emit(text: UnsafeBufferPointer(start: $0, count: length)) }
        case LUA_TNUMBER:
            let text = stack.isInteger(index) ? f.policy.numbers.text(stack.integer(index) ?? 0) : f.policy.numbers.text(stack.number(index) ?? 0)
            var bytes = text
            bytes.withUTF8 { f.emit(text: $0) }
        case LUA_TBOOLEAN:
            f.emit(f.policy.text(.boolean(stack.bool(index))))
        case LUA_TTABLE:
            let marker = runtime.marker(of: index)
            if marker == .null { return f.emitNull() }
            guard marker != .set, depth < runtime.options.maxDepth, lua_checkstack(L, 8) != 0 else { throw GeneralPath() }
            try MemoryBudget.charge(64)  // a table reached again is walked again
            if let count = marker == .array ? stack.rawLength(index) : marker == nil ? runtime.sequenceLength(index) : nil {
                guard count > 0 else { return f.emitEmpty() }
                for i in 1...count {
                    _ = stack.rawGetIndex(index, Int64(i))
                    let item = stack.top
                    // Whether the item nests is asked only by a policy's own key function.
                    try f.under(item: i - 1, nested: stack.type(item) == LUA_TTABLE && runtime.marker(of: item) != .null) {
                        try walk(runtime, item, depth: depth + 1, into: &$0)
                    }
                    stack.pop()
                }
                return
            }
            var empty = true
            try forEachEntry(runtime, index, sorted: marker == nil || isAscending(f.policy)) { name in
                empty = false
                let value = stack.top
                try f.under(entry: name) { try walk(runtime, value, depth: depth + 1, into: &$0) }
            }
            if empty { f.emitEmpty() }
        default:
            throw GeneralPath()
        }
    }

    private static func isAscending(_ policy: Policy) -> Bool {
        if case .ascending = policy.order { return true }
        return false
    }

    /// Calls `body` with each entry's key text and its value at the top of the stack: in the
    /// ordered table's order, or by the keys' bytes (as plain tables' keys are, and as
    /// `order = "ascending"` sorts an ordered one's).
    private static func forEachEntry(_ runtime: LuaRuntime, _ table: Int32, sorted: Bool, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let stack = runtime.stack, L = stack.L
        func name(_ index: Int32) throws -> ByteString {
            guard let text = runtime.keyText(index) else { throw GeneralPath() }
            return text
        }
        let isOrdered = runtime.marker(of: table) == .ordered
        if isOrdered && !sorted {
            try runtime.forEachOrdered(table) {
                // A string key lent where Lua keeps it; a number's text made.
                var length = 0
                if stack.type(-2) == LUA_TSTRING, let pointer = lua_tolstring(L, -2, &length) {
                    try pointer.withMemoryRebound(to: UInt8.self, capacity: length) { try body(UnsafeBufferPointer(start: $0, count: length)) }
                } else {
                    try name(-2).bytes.withUnsafeBufferPointer { try body($0) }
                }
            }
            return
        }
        // The keys gathered in a table of their own (slot → key), their texts sorted, then each
        // value looked up again by its key.
        stack.newTable()
        let keys = stack.top
        defer { stack.setTop(keys - 1) }
        var names: [(name: ByteString, slot: Int64)] = []
        func gather() throws {
            stack.pushValue(-2)
            stack.rawSetIndex(keys, Int64(names.count + 1))
            names.append((try name(-2), Int64(names.count + 1)))
        }
        try (isOrdered ? runtime.forEachOrdered : runtime.forEachRaw)(table) { try gather() }
        // A stable sort: an ordered table's equal texts (1 and "1") would keep their order, but
        // two keys with one text are left to the general path anyway.
        let order = names.indices.sorted { (names[$0].name, $0) < (names[$1].name, $1) }
        for (a, b) in zip(order, order.dropFirst()) where names[a].name == names[b].name { throw GeneralPath() }
        for i in order {
            _ = stack.rawGetIndex(keys, names[i].slot)
            _ = lua_rawget(L, table)
            try names[i].name.bytes.withUnsafeBufferPointer { try body($0) }
            stack.setTop(keys)
        }
    }
}
