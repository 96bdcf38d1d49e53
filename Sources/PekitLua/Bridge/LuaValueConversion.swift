import CLua
import CLuaShim
import PekitCore

/// Why a Lua value could not become a `PekitValue`, with the key path (`params.a.b.a: cycle`).
struct LuaConversionError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

/// The registry keys of the marker metatables set up by the prelude.
enum LuaMarker: String {
    case null = "pekit.mt.null", ordered = "pekit.mt.ordered", set = "pekit.mt.set", array = "pekit.mt.array"
}

extension LuaRuntime {
    /// Converts the Lua value at `index` into a `PekitValue`.
    ///
    /// Tables with keys 1…n are arrays, other tables plain maps (sorted by key), `pekit.ordered`
    /// lists ordered maps, `pekit.set` sets, `pekit.array{}` an empty array, `pekit.null` null.
    /// Integer-valued map keys are written in decimal. Cycles and nesting deeper than
    /// `options.maxDepth` are errors naming the key path; nothing recurses without bound.
    /// - Parameter path: the name of the value for messages (`params`).
    func value(at index: Int32, path: String) throws -> PekitValue {
        var onPath = Set<UnsafeRawPointer>()
        return try readValue(stack.absolute(index), path: path, depth: 0, onPath: &onPath)
    }

    private func marker(of index: Int32) -> LuaMarker? {
        guard lua_getmetatable(L, index) != 0 else { return nil }
        defer { stack.pop() }
        for marker in [LuaMarker.null, .ordered, .set, .array] {
            getRegistry(marker.rawValue)
            let same = lua_rawequal(L, -1, -2) != 0
            stack.pop()
            if same { return marker }
        }
        return nil
    }

    private func readValue(_ index: Int32, path: String, depth: Int, onPath: inout Set<UnsafeRawPointer>) throws -> PekitValue {
        switch stack.type(index) {
        case LUA_TSTRING: return .string(ByteString(stack.bytes(index) ?? []))
        case LUA_TNUMBER:
            if stack.isInteger(index), let value = stack.integer(index) { return .integer(value) }
            return .number(stack.number(index) ?? 0)
        case LUA_TBOOLEAN: return .boolean(stack.bool(index))
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TTABLE: break
        default: throw LuaConversionError(path: path, reason: "cannot use a \(stack.typeName(index)) as a value")
        }
        let kind = marker(of: index)
        if kind == .null { return .null }
        guard let pointer = lua_topointer(L, index) else { return .null }
        if onPath.contains(pointer) { throw LuaConversionError(path: path, reason: "cycle (the table contains itself)") }
        guard depth < options.maxDepth else {
            throw LuaConversionError(path: path, reason: "nested deeper than \(options.maxDepth) levels")
        }
        guard lua_checkstack(L, 8) != 0 else { throw LuaConversionError(path: path, reason: "Lua stack exhausted") }
        onPath.insert(pointer)
        defer { onPath.remove(pointer) }

        switch kind {
        case .ordered:
            var entries: [PekitMap.Entry] = []
            let n = stack.rawLength(index)
            entries.reserveCapacity(n)
            for i in 1...max(n, 1) where n > 0 {
                _ = stack.rawGetIndex(index, Int64(i))
                defer { stack.pop() }
                let pair = stack.top
                guard stack.type(pair) == LUA_TTABLE else { throw LuaConversionError(path: "\(path)[\(i)]", reason: "not a {key, value} pair") }
                _ = stack.rawGetIndex(pair, 1)
                let key = try mapKey(-1, path: "\(path)[\(i)]")
                stack.pop()
                _ = stack.rawGetIndex(pair, 2)
                let element = try readValue(stack.top, path: appendPath(path, key), depth: depth + 1, onPath: &onPath)
                stack.pop()
                entries.append(.init(key: key, value: element))
            }
            return .map(PekitMap(ordered: entries))
        case .set, .array:
            let elements = try readSequence(index, count: stack.rawLength(index), path: path, depth: depth, onPath: &onPath)
            return kind == .set ? .set(elements) : .array(elements)
        default:
            break
        }

        // A plain table: an array when its keys are exactly 1…n, a map otherwise.
        var keyCount = 0
        var onlyPositiveIntegers = true
        stack.pushNil()
        while lua_next(L, index) != 0 {
            keyCount += 1
            if !(stack.isInteger(-2) && (stack.integer(-2) ?? 0) >= 1) { onlyPositiveIntegers = false }
            stack.pop()
        }
        if keyCount > 0 && onlyPositiveIntegers && stack.rawLength(index) == keyCount {
            return .array(try readSequence(index, count: keyCount, path: path, depth: depth, onPath: &onPath))
        }
        var entries: [PekitMap.Entry] = []
        entries.reserveCapacity(keyCount)
        stack.pushNil()
        while lua_next(L, index) != 0 {
            let key = try mapKey(-2, path: path)
            let element = try readValue(stack.top, path: appendPath(path, key), depth: depth + 1, onPath: &onPath)
            stack.pop()
            entries.append(.init(key: key, value: element))
        }
        return .map(PekitMap(unordered: entries))
    }

    private func readSequence(_ index: Int32, count: Int, path: String, depth: Int, onPath: inout Set<UnsafeRawPointer>) throws -> [PekitValue] {
        var elements: [PekitValue] = []
        elements.reserveCapacity(count)
        var i = 1
        while i <= count {
            _ = stack.rawGetIndex(index, Int64(i))
            let element = try readValue(stack.top, path: "\(path)[\(i)]", depth: depth + 1, onPath: &onPath)
            stack.pop()
            elements.append(element)
            i += 1
        }
        return elements
    }

    // A key as bytes, without converting it in place (that would confuse lua_next).
    private func mapKey(_ index: Int32, path: String) throws -> ByteString {
        switch stack.type(index) {
        case LUA_TSTRING: return ByteString(stack.bytes(index) ?? [])
        case LUA_TNUMBER:
            if stack.isInteger(index), let value = stack.integer(index) { return ByteString(String(value)) }
            return ByteString((stack.number(index) ?? 0).luaString)
        default:
            throw LuaConversionError(path: path, reason: "a key must be a string or a number, not a \(stack.typeName(index))")
        }
    }

    private func appendPath(_ path: String, _ key: ByteString) -> String {
        let text = key.description
        let isName = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)) }
            && !("0"..."9").contains(text.unicodeScalars.first!)
        return isName ? "\(path).\(text)" : "\(path)[\"\(text)\"]"
    }

    /// Pushes `value` as Lua sees it: arrays carry the `pekit.array` mark (so empty ones stay
    /// arrays), ordered maps are `pekit.ordered` lists, sets `pekit.set`, null `pekit.null`.
    func push(_ value: PekitValue) {
        _ = lua_checkstack(L, 4)
        switch value {
        case .string(let bytes): stack.push(bytes)
        case .integer(let n): stack.push(integer: n)
        case .number(let x): stack.push(number: x)
        case .boolean(let b): stack.push(bool: b)
        case .null: getRegistry("pekit.null")
        case .array(let elements), .set(let elements):
            stack.newTable(narr: Int32(clamping: elements.count))
            for (i, element) in elements.enumerated() {
                push(element)
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            if case .set = value { getRegistry(LuaMarker.set.rawValue) } else { getRegistry(LuaMarker.array.rawValue) }
            lua_setmetatable(L, -2)
        case .map(let map):
            if map.isOrdered {
                stack.newTable(narr: Int32(clamping: map.count))
                for (i, entry) in map.entries.enumerated() {
                    stack.newTable(narr: 2)
                    stack.push(entry.key)
                    stack.rawSetIndex(-2, 1)
                    push(entry.value)
                    stack.rawSetIndex(-2, 2)
                    stack.rawSetIndex(-2, Int64(i + 1))
                }
                getRegistry(LuaMarker.ordered.rawValue)
                lua_setmetatable(L, -2)
            } else {
                stack.newTable(nrec: Int32(clamping: map.count))
                for entry in map.entries {
                    stack.push(entry.key)
                    push(entry.value)
                    lua_rawset(L, -3)
                }
            }
        }
    }
}
