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
    var L: OpaquePointer { runtime.L }

    init(_ runtime: LuaRuntime, ordered: Bool = false) {
        self.runtime = runtime
        self.ordered = ordered
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) { runtime.stack.push(bytes) }
    mutating func null() { runtime.pushNull() }

    mutating func beginList(count: Int) {
        // A container, its pending key and value: the deepest list needs three slots more.
        _ = lua_checkstack(L, 4)
        lua_createtable(L, Int32(clamping: count), 0)
    }

    mutating func setElement(_ position: Int) { lua_rawseti(L, -2, lua_Integer(position)) }
    mutating func endList() { runtime.setMarker(.array) }

    mutating func beginMap(count: Int) {
        guard ordered else {
            _ = lua_checkstack(L, 4)
            lua_createtable(L, 0, Int32(clamping: count))
            return
        }
        // The table and its order's keys and positions, then a pending key and value.
        _ = lua_checkstack(L, 6)
        builders.append(runtime.beginOrdered(capacity: count))
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) { runtime.stack.push(bytes) }

    mutating func setField() {
        guard ordered, !builders.isEmpty else { return lua_rawset(L, -3) }
        runtime.appendOrdered(&builders[builders.count - 1])
    }

    mutating func endMap() {
        guard ordered, let builder = builders.popLast() else { return }
        runtime.endOrdered(builder)
    }
}
