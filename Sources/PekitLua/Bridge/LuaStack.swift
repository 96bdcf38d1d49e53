import Foundation
import CLua
import CLuaShim
import PekitCore

/// Stack helpers over a raw `lua_State` (the main state or a coroutine). None of these raise,
/// except on a real out-of-memory with the cap already relaxed.
package struct LuaStack {
    let L: OpaquePointer

    package var top: Int32 { lua_gettop(L) }
    package func setTop(_ n: Int32) { lua_settop(L, n) }
    package func pop(_ n: Int32 = 1) { pekit_pop(L, n) }
    package func type(_ i: Int32) -> Int32 { lua_type(L, i) }
    package func typeName(_ i: Int32) -> String {
        String(decoding: UnsafeRawBufferPointer(start: pekit_typename_at(L, i), count: strlen(pekit_typename_at(L, i))), as: UTF8.self)
    }
    package func isNoneOrNil(_ i: Int32) -> Bool { pekit_isnoneornil(L, i) != 0 }
    package func absolute(_ i: Int32) -> Int32 { lua_absindex(L, i) }

    package func push(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            _ = buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { lua_pushlstring(L, $0, buffer.count) }
            } ?? lua_pushlstring(L, "", 0)
        }
    }
    package func push(_ bytes: UnsafeBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            _ = lua_pushlstring(L, chars.baseAddress ?? UnsafePointer(bitPattern: 1), chars.count)
        }
    }
    /// Pushes the text's UTF-8 bytes straight from its storage (no copy: strings are pushed for
    /// every field of every table pekit builds).
    package func push(_ string: String) {
        var string = string
        string.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = lua_pushlstring(L, chars.baseAddress ?? UnsafePointer(bitPattern: 1), chars.count)
            }
        }
    }
    package func push(_ bytes: ByteString) { push(bytes.bytes) }
    package func push(integer: Int64) { lua_pushinteger(L, lua_Integer(integer)) }
    package func push(number: Double) { lua_pushnumber(L, number) }
    package func push(bool: Bool) { lua_pushboolean(L, bool ? 1 : 0) }
    package func pushNil() { lua_pushnil(L) }
    package func pushValue(_ i: Int32) { lua_pushvalue(L, i) }
    package func newTable(narr: Int32 = 0, nrec: Int32 = 0) { lua_createtable(L, narr, nrec) }

    /// The bytes of the string at `i`, or nil when it is not a string (numbers are not converted,
    /// since `lua_tolstring` would change them in place).
    package func bytes(_ i: Int32) -> [UInt8]? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = lua_tolstring(L, i, &length) else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The string at `i` as Swift text (invalid UTF-8 repaired), or nil when it is not a string.
    package func string(_ i: Int32) -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = lua_tolstring(L, i, &length) else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
    }

    /// What `tostring` would give, under protection (calls `__tostring`).
    package func toStringMeta(_ i: Int32) -> String {
        if pekit_tostring(L, i) != 0 {
            let message = string(-1) ?? "?"
            pop()
            return "<tostring failed: \(message)>"
        }
        defer { pop() }
        return string(-1) ?? ""
    }

    package func integer(_ i: Int32) -> Int64? {
        var isNumber: Int32 = 0
        let value = pekit_tointeger(L, i, &isNumber)
        return isNumber != 0 && lua_type(L, i) == LUA_TNUMBER ? Int64(value) : nil
    }

    package func number(_ i: Int32) -> Double? {
        guard lua_type(L, i) == LUA_TNUMBER else { return nil }
        return Double(pekit_tonumber(L, i, nil))
    }

    package func isInteger(_ i: Int32) -> Bool { lua_isinteger(L, i) != 0 }
    package func bool(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    /// Raw field access (no metamethods, so nothing can raise).
    package func rawGet(_ table: Int32, _ key: String) -> Int32 {
        let t = absolute(table)
        push(key)
        return lua_rawget(L, t)
    }
    package func rawSet(_ table: Int32, _ key: String) {  // sets t[key] = top, pops it
        let t = absolute(table)
        push(key)
        lua_rotate(L, -2, 1)
        lua_rawset(L, t)
    }
    package func rawGetIndex(_ table: Int32, _ n: Int64) -> Int32 { lua_rawgeti(L, table, lua_Integer(n)) }
    package func rawSetIndex(_ table: Int32, _ n: Int64) { lua_rawseti(L, table, lua_Integer(n)) }
    /// The length of the value at `i` without `__len`; a `jar:receive` list not read yet is
    /// made first (it is empty until then).
    package func rawLength(_ i: Int32) -> Int {
        pekit_cookie_list_settle(L, i)
        return Int(lua_rawlen(L, i))
    }
}

extension Double {
    /// The number as Lua's `tostring` writes a float (`%.14g`, with `.0` added to integral values).
    var luaString: String {
        if isNaN { return self.sign == .minus ? "-nan" : "nan" }
        if isInfinite { return self < 0 ? "-inf" : "inf" }
        var text = formatLuaFloat(self)
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "n" || $0 == "i" }) { text += ".0" }
        return text
    }
}

/// `%.14g`, the format Lua uses for floats.
func formatLuaFloat(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = buffer.count
    let n = withVaList([value]) { vsnprintf(&buffer, count, "%.14g", $0) }
    return String(decoding: buffer.prefix(Int(max(0, n))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension LuaStack {
    /// Pushes the global `name` (raw access to the global table).
    package func pushGlobal(_ name: String) {
        pekit_pushglobaltable(L)
        _ = rawGet(-1, name)
        lua_rotate(L, -2, 1)
        pop()
    }
}

extension pekit_span {
    /// Bytes lent to the C side for the length of a call (the tables CLuaShim builds in one call).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, length: bytes.count)
    }
}
