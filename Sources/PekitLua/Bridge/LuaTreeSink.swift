import CLua
import CLuaShim
import PekitCore

/// Builds Lua tables straight from a parser's tree (`QueryTreeSink`), as `push(_:keepOrder:)`
/// would from the `PekitValue`: lists carry the `pekit.array` mark, maps are `pekit.ordered`
/// tables in the server's order (or plain tables when `ordered` is false), null is
/// `pekit.null`. Tables are made at their final size, so none is rehashed while filling.
struct LuaTreeSink: QueryTreeSink {
    let runtime: LuaRuntime
    let ordered: Bool
    /// The ordered maps being built, innermost last.
    private var builders: [LuaRuntime.OrderedBuilder] = []
    /// A table was refused for its size (the state's memory cap): nothing more is pushed, the
    /// walk stops, and the call raises the memory error (the charge put the state over its cap).
    private(set) var exhausted = false
    var L: OpaquePointer { runtime.L }

    init(_ runtime: LuaRuntime, ordered: Bool = false) {
        self.runtime = runtime
        self.ordered = ordered
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) { if !exhausted { runtime.stack.push(bytes) } }
    mutating func null() { if !exhausted { runtime.pushNull() } }

    mutating func beginList(count: Int) {
        if exhausted { return }
        // A container, its pending key and value: the deepest list needs three slots more.
        _ = lua_checkstack(L, 4)
        // Made at its full size: a sparse list's length is its highest index, not its input.
        guard MemoryBudget.allows(count &* 16) else { exhausted = true; return }
        lua_createtable(L, Int32(clamping: count), 0)
    }

    mutating func setElement(_ position: Int) { if !exhausted { lua_rawseti(L, -2, lua_Integer(position)) } }
    mutating func endList() { if !exhausted { runtime.setMarker(.array) } }

    mutating func beginMap(count: Int) {
        if exhausted { return }
        guard MemoryBudget.allows(count &* 40) else { exhausted = true; return }
        guard ordered else {
            _ = lua_checkstack(L, 4)
            lua_createtable(L, 0, Int32(clamping: count))
            return
        }
        // The table and its order's keys and positions, then a pending key and value.
        _ = lua_checkstack(L, 6)
        builders.append(runtime.beginOrdered(capacity: count))
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) { if !exhausted { runtime.stack.push(bytes) } }

    mutating func setField() {
        if exhausted { return }
        guard ordered, !builders.isEmpty else { return lua_rawset(L, -3) }
        runtime.appendOrdered(&builders[builders.count - 1])
    }

    mutating func endMap() {
        if exhausted { return }
        guard ordered, let builder = builders.popLast() else { return }
        runtime.endOrdered(builder)
    }
}
