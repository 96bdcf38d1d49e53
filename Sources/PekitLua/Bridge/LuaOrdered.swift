import CLua
import CLuaShim
import PekitCore

/// `pekit.ordered` tables from Swift: plain tables whose key order is kept in the prelude's weak
/// table `orders[t] = { keys = {…}, pos = {[k] = i}, n = … }` (a moved key's old slot is false).
/// Reading and building them here follows the prelude's rules exactly, so a script's edits
/// (`t.k = v`, `t.k = nil`, new keys) are what every consumer sees.
extension LuaRuntime {
    /// Calls `body` for each entry of the ordered table at `index`, in order (key at -2, value at
    /// -1): the recorded keys still present, then keys set behind the order's back (rawset),
    /// sorted as plain tables are. Raw access only; the stack is left as found.
    func forEachOrdered(_ index: Int32, _ body: () throws -> Void) throws {
        let table = stack.absolute(index)
        let base = stack.top
        defer { stack.setTop(base) }
        _ = lua_checkstack(L, 8)
        // The order's keys (base+1) and positions (base+2); empty tables when there is no order.
        // A slot is current when its key's position is that slot (a moved key's old slot is
        // false, and `pos` points to the newest), so no table of keys already given is needed.
        _ = stack.rawGetIndex(pekit_registryindex(), Int64(markerCache.ordersRef))
        stack.pushValue(table)
        var count = 0
        if lua_rawget(L, -2) == LUA_TTABLE {
            let o = stack.top
            _ = stack.rawGet(o, "keys")
            _ = stack.rawGet(o, "pos")
            if stack.rawGet(o, "n") == LUA_TNUMBER { count = Int(stack.integer(-1) ?? 0) }
            stack.pop()
            lua_copy(L, -2, base + 1)
            lua_copy(L, -1, base + 2)
            stack.setTop(base + 2)
        } else {
            stack.setTop(base)
            stack.newTable()
            stack.newTable()
        }
        let keys = base + 1, pos = base + 2
        for i in 0..<count {
            defer { stack.setTop(pos) }
            let keyType = stack.rawGetIndex(keys, Int64(i + 1))
            guard keyType == LUA_TSTRING || keyType == LUA_TNUMBER else { continue }  // a moved slot
            stack.pushValue(-1)
            guard lua_rawget(L, pos) == LUA_TNUMBER, stack.integer(-1) == Int64(i + 1) else { continue }
            stack.pop()
            stack.pushValue(-1)
            guard lua_rawget(L, table) != LUA_TNIL else { continue }  // removed
            try body()
        }
        // Keys the order does not know (set with rawset), sorted as plain tables' keys are.
        stack.newTable()
        let extras = pos + 1
        var names: [(name: ByteString, slot: Int)] = []
        stack.pushNil()
        while lua_next(L, table) != 0 {
            stack.pop()
            stack.pushValue(-1)
            if lua_rawget(L, pos) == LUA_TNIL {
                stack.pushValue(-2)
                stack.rawSetIndex(extras, Int64(names.count + 1))
                let name = stack.type(-2) == LUA_TSTRING ? (stack.bytes(-2) ?? []) : Array(stack.toStringMeta(-2).utf8)
                names.append((ByteString(name), names.count + 1))
            }
            stack.pop()
        }
        for item in names.sorted(by: { $0.name.bytes.lexicographicallyPrecedes($1.name.bytes) }) {
            _ = stack.rawGetIndex(extras, Int64(item.slot))
            stack.pushValue(-1)
            _ = lua_rawget(L, table)
            try body()
            stack.setTop(extras)
        }
    }

    /// An ordered table being built: the table and its order's `keys` and `pos`, on the stack.
    struct OrderedBuilder {
        let table: Int32
        var count: Int = 0
    }

    /// Pushes a new ordered table (and two helper tables above it) to fill with `appendOrdered`.
    func beginOrdered(capacity: Int) -> OrderedBuilder {
        _ = lua_checkstack(L, 8)
        stack.newTable(nrec: Int32(clamping: capacity))
        let table = stack.top
        stack.newTable(narr: Int32(clamping: capacity))       // keys
        stack.newTable(nrec: Int32(clamping: capacity))       // pos
        return OrderedBuilder(table: table)
    }

    /// Appends the key and value on top (pops both). A repeated key keeps its first place.
    func appendOrdered(_ builder: inout OrderedBuilder) {
        let table = builder.table, keys = table + 1, pos = table + 2
        stack.pushValue(-2)
        if lua_rawget(L, table) == LUA_TNIL {
            builder.count += 1
            stack.pushValue(-3)
            stack.rawSetIndex(keys, Int64(builder.count))
            stack.pushValue(-3)
            stack.push(integer: Int64(builder.count))
            lua_rawset(L, pos)
        }
        stack.pop()
        lua_rawset(L, table)
    }

    /// Records the order and sets the mark; leaves only the table on the stack.
    func endOrdered(_ builder: OrderedBuilder) {
        let table = builder.table
        stack.newTable(nrec: 3)
        let o = stack.top
        stack.pushValue(table + 1); stack.rawSet(o, "keys")
        stack.pushValue(table + 2); stack.rawSet(o, "pos")
        stack.push(integer: Int64(builder.count)); stack.rawSet(o, "n")
        _ = stack.rawGetIndex(pekit_registryindex(), Int64(markerCache.ordersRef))
        stack.pushValue(table)
        stack.pushValue(o)
        lua_rawset(L, -3)
        stack.setTop(table)
        setMarker(.ordered)
    }
}
