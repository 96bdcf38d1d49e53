import CLua
import CLuaShim
import PekitCore

/// Builds Lua tables straight from a parser's tree (`QueryTreeSink`), as `push(_:keepOrder:false)`
/// would from the `PekitValue`: lists carry the `pekit.array` mark, maps are plain tables, null
/// is `pekit.null`. Tables are made at their final size, so none is rehashed while filling.
struct LuaTreeSink: QueryTreeSink {
    let runtime: LuaRuntime
    var L: OpaquePointer { runtime.L }

    init(_ runtime: LuaRuntime) { self.runtime = runtime }

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
        _ = lua_checkstack(L, 4)
        lua_createtable(L, 0, Int32(clamping: count))
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) { runtime.stack.push(bytes) }
    mutating func setField() { lua_rawset(L, -3) }
    mutating func endMap() {}
}
