import CLua
import CLuaShim
import PekitCore

/// Why a Lua value could not become a `PekitValue`, with the key path (`params.a.b.a: cycle`).
struct LuaConversionError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

/// The marks a table can carry (metatables set up by the prelude): `pekit.null`, `pekit.ordered`,
/// `pekit.set`, `pekit.array`.
package enum LuaMarker: CaseIterable {
    case null, ordered, set, array

    var metatableKey: RegistryKey {
        switch self {
        case .null: return .nullMetatable
        case .ordered: return .orderedMetatable
        case .set: return .setMetatable
        case .array: return .arrayMetatable
        }
    }
}

extension LuaRuntime {
    /// Converts the Lua value at `index` into a `PekitValue`.
    ///
    /// Tables with keys 1…n are arrays, other tables plain maps (sorted by key), `pekit.ordered`
    /// lists ordered maps, `pekit.set` sets, `pekit.array{}` an empty array, `pekit.null` null.
    /// Integer-valued map keys are written in decimal. Cycles and nesting deeper than
    /// `options.maxDepth` are errors naming the key path; nothing recurses without bound.
    /// - Parameter path: the name of the value for messages (`params`).
    package func value(at index: Int32, path: String) throws -> PekitValue {
        var onPath = Set<UnsafeRawPointer>()
        var keyPath = KeyPath(root: path)
        return try readValue(stack.absolute(index), path: &keyPath, depth: 0, onPath: &onPath)
    }

    /// The mark of the table at `index`, if it has one.
    package func marker(of index: Int32) -> LuaMarker? {
        guard lua_getmetatable(L, index) != 0 else { return nil }
        // The marker metatables never move (Lua's collector does not move objects, and the
        // registry keeps them alive), so comparing addresses is exact.
        let pointer = lua_topointer(L, -1)
        stack.pop()
        return markerCache.marker(at: pointer)
    }

    private func readValue(_ index: Int32, path: inout KeyPath, depth: Int, onPath: inout Set<UnsafeRawPointer>) throws -> PekitValue {
        switch stack.type(index) {
        case LUA_TSTRING:
            let bytes = stack.bytes(index) ?? []
            // One Lua string (or table) may be reached many times (t[1] = s, t[2] = s, …): the
            // copies are charged, as Lua's own memory does not bound them.
            if bytes.count > 64 { try MemoryBudget.charge(bytes.count) }
            return .string(ByteString(bytes))
        case LUA_TNUMBER:
            if stack.isInteger(index), let value = stack.integer(index) { return .integer(value) }
            return .number(stack.number(index) ?? 0)
        case LUA_TBOOLEAN: return .boolean(stack.bool(index))
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TTABLE: break
        default: throw LuaConversionError(path: path.text, reason: "cannot use a \(stack.typeName(index)) as a value")
        }
        let kind = marker(of: index)
        if kind == .null { return .null }
        let pointer = try enter(index, path: path, depth: depth, onPath: &onPath)
        defer { onPath.remove(pointer) }

        switch kind {
        case .ordered:
            var entries: [PekitMap.Entry] = []
            try forEachOrdered(index) {
                let key = try mapKey(-2, path: path)
                path.components.append(.key(key))
                defer { path.components.removeLast() }
                entries.append(.init(key: key, value: try readValue(stack.top, path: &path, depth: depth + 1, onPath: &onPath)))
            }
            return .map(PekitMap(ordered: entries))
        case .set, .array:
            let elements = try readSequence(index, count: stack.rawLength(index), path: &path, depth: depth, onPath: &onPath)
            return kind == .set ? .set(elements) : .array(elements)
        default:
            break
        }

        if let count = sequenceLength(index) {
            return .array(try readSequence(index, count: count, path: &path, depth: depth, onPath: &onPath))
        }
        var entries: [PekitMap.Entry] = []
        var numberKey = false
        try forEachRaw(index) {
            let key = try mapKey(-2, path: path)
            if stack.type(-2) == LUA_TNUMBER { numberKey = true }
            path.components.append(.key(key))
            defer { path.components.removeLast() }
            entries.append(.init(key: key, value: try readValue(stack.top, path: &path, depth: depth + 1, onPath: &onPath)))
        }
        let map = PekitMap(unordered: entries)
        // A Lua table's keys are distinct, but 0 and "0" (or two floats printed alike) are
        // written the same: a JSON object or a query would hold that name twice, and a reader
        // keep one. Sorted, such keys are neighbours.
        if numberKey, let i = map.entries.indices.dropFirst().first(where: { map.entries[$0].key == map.entries[$0 - 1].key }) {
            let key = map.entries[i].key.description
            throw LuaConversionError(path: path.text, reason: "two keys are both written \(LuaLiteral.quoted(key)) (a number key and a string key, or two numbers Lua writes alike); a map holds each name once")
        }
        return .map(map)
    }

    /// The checks every walk into a table makes: a cycle, nesting past `maxDepth`, room on the
    /// stack. Returns the table's address, now on `onPath`, for the caller to remove on leaving.
    func enter(_ index: Int32, path: KeyPath, depth: Int, onPath: inout Set<UnsafeRawPointer>) throws -> UnsafeRawPointer {
        let pointer = lua_topointer(L, index) ?? UnsafeRawPointer(bitPattern: 1)!
        if onPath.contains(pointer) { throw LuaConversionError(path: path.text, reason: "cycle (the table contains itself)") }
        guard depth < options.maxDepth else { throw LuaConversionError(path: path.text, reason: "nested deeper than \(options.maxDepth) levels") }
        guard lua_checkstack(L, 8) != 0 else { throw LuaConversionError(path: path.text, reason: "Lua stack exhausted") }
        // A table reached again through another key is copied again: each copy is charged.
        try MemoryBudget.charge(64 &+ Int(lua_rawlen(L, index)) &* MemoryLayout<PekitValue>.stride)
        onPath.insert(pointer)
        return pointer
    }

    private func readSequence(_ index: Int32, count: Int, path: inout KeyPath, depth: Int, onPath: inout Set<UnsafeRawPointer>) throws -> [PekitValue] {
        var elements: [PekitValue] = []
        elements.reserveCapacity(count)
        var i = 1
        while i <= count {
            _ = stack.rawGetIndex(index, Int64(i))
            path.components.append(.index(i))
            let element = try readValue(stack.top, path: &path, depth: depth + 1, onPath: &onPath)
            path.components.removeLast()
            stack.pop()
            elements.append(element)
            i += 1
        }
        return elements
    }

    /// The length of the plain table at `index` (absolute) when its keys are exactly 1…n, n > 0:
    /// what a conversion reads as an array; nil for a map or an empty table. Stops at the first
    /// key that is not a positive integer (a map's first key, most often).
    func sequenceLength(_ index: Int32) -> Int? {
        var keyCount = 0
        pekit_cookie_list_settle(L, index)
        stack.pushNil()
        while lua_next(L, index) != 0 {
            stack.pop()
            guard stack.isInteger(-1), (stack.integer(-1) ?? 0) >= 1 else { stack.pop(); return nil }
            keyCount += 1
        }
        return keyCount > 0 && lua_rawlen(L, index) == keyCount ? keyCount : nil  // made above
    }

    /// A map key's text (a string's bytes, a number as Lua writes it), read without converting
    /// it in place (that would confuse a traversal); nil for a key of another type.
    func keyText(_ index: Int32) -> ByteString? {
        switch stack.type(index) {
        case LUA_TSTRING: return ByteString(stack.bytes(index) ?? [])
        case LUA_TNUMBER:
            if stack.isInteger(index), let value = stack.integer(index) { return ByteString(String(value)) }
            return ByteString((stack.number(index) ?? 0).luaString)
        default: return nil
        }
    }

    private func mapKey(_ index: Int32, path: KeyPath) throws -> ByteString {
        guard let key = keyText(index) else {
            throw LuaConversionError(path: path.text, reason: "a key must be a string or a number, not a \(stack.typeName(index))")
        }
        return key
    }

    /// Pushes `value` as Lua sees it: arrays carry the `pekit.array` mark (so empty ones stay
    /// arrays), ordered maps are `pekit.ordered` lists, sets `pekit.set`, null `pekit.null`.
    /// - Parameter keepOrder: push ordered maps as `pekit.ordered` lists (key order kept, lookups
    ///   by key linear); otherwise as plain tables (fast lookups, Lua's own order).
    func push(_ value: PekitValue, keepOrder: Bool = true) {
        _ = lua_checkstack(L, 4)
        switch value {
        case .string(let bytes): stack.push(bytes)
        case .integer(let n): stack.push(integer: n)
        case .number(let x): stack.push(number: x)
        // Lua has no integers past 64 bits: such a number is the float Lua's own tonumber gives.
        case .bigInteger(let digits): stack.push(number: Double(digits) ?? .nan)
        case .boolean(let b): stack.push(bool: b)
        case .null: pushNull()
        case .array(let elements), .set(let elements):
            stack.newTable(narr: Int32(clamping: elements.count))
            for (i, element) in elements.enumerated() {
                push(element, keepOrder: keepOrder)
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            if case .set = value { setMarker(.set) } else { setMarker(.array) }
        case .map(let map):
            if map.isOrdered && keepOrder {
                var builder = beginOrdered(capacity: map.count)
                for entry in map.entries {
                    stack.push(entry.key)
                    push(entry.value, keepOrder: keepOrder)
                    appendOrdered(&builder)
                }
                endOrdered(builder)
            } else {
                stack.newTable(nrec: Int32(clamping: map.count))
                for entry in map.entries {
                    stack.push(entry.key)
                    push(entry.value, keepOrder: keepOrder)
                    lua_rawset(L, -3)
                }
            }
        }
    }
}

/// A key path built only when an error needs it (`params.list[2]["a b"]`).
struct KeyPath {
    enum Component { case key(ByteString), index(Int) }
    let root: String
    var components: [Component] = []

    init(root: String) { self.root = root }

    /// `params.user.tags[2]`; a long path keeps its first and last steps around "…".
    var text: String {
        let steps = components.map { component -> String in
            switch component {
            case .index(let i): return "[\(i)]"
            case .key(let key):
                let text = key.description
                let isName = text.unicodeScalars.first.map { !("0"..."9").contains($0) } ?? false
                    && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)) }
                return isName ? ".\(text)" : "[\"\(text)\"]"
            }
        }
        guard steps.count > 12 else { return root + steps.joined() }
        return root + steps.prefix(6).joined() + "…" + steps.suffix(3).joined()
    }
}

/// The marker metatables and `pekit.null` as registry references and addresses, for fast pushing
/// and recognising.
struct MarkerCache {
    var pointers: [UnsafeRawPointer?] = []
    var refs: [Int32] = []
    var nullRef: Int32 = 0
    /// The weak table of key orders of `pekit.ordered` tables.
    var ordersRef: Int32 = 0

    func marker(at pointer: UnsafeRawPointer?) -> LuaMarker? {
        guard pointer != nil, let i = pointers.firstIndex(of: pointer) else { return nil }
        return LuaMarker.allCases[i]
    }
}

extension LuaRuntime {
    /// Sets the mark's metatable on the table on top.
    func setMarker(_ marker: LuaMarker) {
        let i = LuaMarker.allCases.firstIndex(of: marker) ?? 0
        _ = lua_rawgeti(L, pekit_registryindex(), lua_Integer(markerCache.refs[i]))
        lua_setmetatable(L, -2)
    }

    /// Pushes `pekit.null`.
    func pushNull() { _ = lua_rawgeti(L, pekit_registryindex(), lua_Integer(markerCache.nullRef)) }

    /// Fills the cache from the registry keys the prelude's values were stored under.
    func cacheMarkers() {
        var cache = MarkerCache()
        for marker in LuaMarker.allCases {
            getRegistry(marker.metatableKey)
            cache.pointers.append(lua_topointer(L, -1))
            cache.refs.append(reference())
        }
        getRegistry(.null)
        cache.nullRef = reference()
        getRegistry(.orders)
        cache.ordersRef = reference()
        markerCache = cache
    }
}

/// Charsets (`pekit.charset`) as Lua values: a userdata holding the 128-bit table, read wherever
/// a value is (policies, copies between states), made by the charset module.
extension LuaRuntime {
    static let charsetMetatable = "pekit.charset"

    /// Pushes a charset userdata.
    func push(charset: AllowedSet) {
        // The metatable is the charset module's: a policy's fields or a plugin's copied value
        // may be the first charset a script sees.
        PekitModule.install(CharsetModule.self, in: self)
        let raw = pekit_newuserdata(L, 16)!
        let (low, high) = charset.bitmap
        raw.storeBytes(of: low, toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        _ = pekit_getmetatable_named(L, Self.charsetMetatable)
        lua_setmetatable(L, -2)
    }

    /// The charset userdata at `index`, or nil.
    func charset(at index: Int32) -> AllowedSet? {
        guard let raw = luaL_testudata(L, index, Self.charsetMetatable) else { return nil }
        return AllowedSet(low: raw.load(fromByteOffset: 0, as: UInt64.self), high: raw.load(fromByteOffset: 8, as: UInt64.self))
    }

    /// A charset from a charset userdata or a string of characters (exactly those characters).
    func charsetOperand(_ call: LuaCall, _ n: Int32) throws -> AllowedSet {
        if let set = charset(at: n) { return set }
        guard call.stack.type(n) == LUA_TSTRING else { throw call.typeError(n, expected: "charset or string") }
        return try AllowedSet(characters: call.string(n))
    }
}

// MARK: Ordered tables

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
