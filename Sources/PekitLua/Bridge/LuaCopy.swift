import CLua
import CLuaShim
import PekitCore

/// A Lua value copied out of one runtime's state, to be pushed into another's: how values cross
/// between the host and a plugin, which never share a table. Data is copied (tables key by key,
/// raw, with their pekit marks); a plugin's functions become host functions that call into the
/// plugin under its limits.
indirect enum LuaCopy {
    case none
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string([UInt8])
    case charset(AllowedSet)
    case null
    case table([(key: LuaCopy, value: LuaCopy)], marker: LuaMarker?)
    case function(LuaCallback)
}

/// A plugin function as the host knows it: the plugin's runtime and the function's address there.
struct ProxyKey: Hashable {
    let runtime: ObjectIdentifier
    let function: UnsafeRawPointer
}

extension LuaRuntime {
    /// Copies the value at `index` of the current state.
    /// - Parameters:
    ///   - path: names the value in errors (`argument #2`, `plugin table`).
    ///   - functions: whether functions may be copied (only out of a plugin, never into one: a
    ///     host function called by a plugin would run with the host's capabilities).
    /// - Throws: `LuaConversionError` naming the key path: a cycle, nesting past `maxDepth`, a
    ///   function or userdata that cannot cross.
    func copy(at index: Int32, path: String, functions: Bool) throws -> LuaCopy {
        var keyPath = KeyPath(root: path)
        var onPath = Set<UnsafeRawPointer>()
        return try copyValue(stack.absolute(index), path: &keyPath, depth: 0, onPath: &onPath, functions: functions)
    }

    private func copyValue(_ index: Int32, path: inout KeyPath, depth: Int, onPath: inout Set<UnsafeRawPointer>,
                           functions: Bool) throws -> LuaCopy {
        switch stack.type(index) {
        case LUA_TNIL, LUA_TNONE: return .none
        case LUA_TBOOLEAN: return .boolean(stack.bool(index))
        case LUA_TNUMBER:
            if stack.isInteger(index), let n = stack.integer(index) { return .integer(n) }
            return .number(stack.number(index) ?? 0)
        case LUA_TSTRING: return .string(stack.bytes(index) ?? [])
        case LUA_TUSERDATA:
            if let set = charset(at: index) { return .charset(set) }
            throw LuaConversionError(path: path.text, reason: "a \(stack.typeName(index)) cannot be copied between a plugin and the host")
        case LUA_TFUNCTION:
            guard functions else {
                throw LuaConversionError(path: path.text, reason: "a function cannot be passed to a plugin (it would run with the caller's rights)")
            }
            stack.pushValue(index)
            return .function(LuaCallback(runtime: self, origin: "\(role.origin): \(path.text)"))
        case LUA_TTABLE: break
        default: throw LuaConversionError(path: path.text, reason: "a \(stack.typeName(index)) cannot be copied between a plugin and the host")
        }
        let mark = marker(of: index)
        if mark == .null { return .null }
        let pointer = try enter(index, path: path, depth: depth, onPath: &onPath)
        defer { onPath.remove(pointer) }
        var entries: [(key: LuaCopy, value: LuaCopy)] = []
        let iterate = mark == .ordered ? forEachOrdered : forEachRaw
        try iterate(index) {
            let key = try copyValue(stack.absolute(-2), path: &path, depth: depth + 1, onPath: &onPath, functions: false)
            path.components.append(Self.pathComponent(key))
            defer { path.components.removeLast() }
            entries.append((key, try copyValue(stack.top, path: &path, depth: depth + 1, onPath: &onPath, functions: functions)))
        }
        return .table(entries, marker: mark)
    }

    private static func pathComponent(_ key: LuaCopy) -> KeyPath.Component {
        switch key {
        case .integer(let n): return .index(Int(clamping: n))
        case .string(let bytes): return .key(ByteString(bytes))
        case .number(let x): return .key(ByteString(x.luaString))
        default: return .key("?")
        }
    }

    /// Pushes a copy onto the current state; a plugin's functions become proxies.
    func push(copy: LuaCopy) {
        _ = lua_checkstack(L, 4)
        switch copy {
        case .none: stack.pushNil()
        case .boolean(let b): stack.push(bool: b)
        case .integer(let n): stack.push(integer: n)
        case .number(let x): stack.push(number: x)
        case .string(let bytes): stack.push(bytes)
        case .charset(let set): push(charset: set)
        case .null: pushNull()
        case .table(let entries, .ordered?):
            var builder = beginOrdered(capacity: entries.count)
            for entry in entries {
                push(copy: entry.key)
                push(copy: entry.value)
                if stack.type(-2) == LUA_TNIL { stack.pop(2); continue }
                appendOrdered(&builder)
            }
            endOrdered(builder)
        case .table(let entries, let mark):
            stack.newTable(nrec: Int32(clamping: entries.count))
            for entry in entries {
                push(copy: entry.key)
                push(copy: entry.value)
                if stack.type(-2) == LUA_TNIL { stack.pop(2); continue }
                lua_rawset(L, -3)
            }
            if let mark { setMarker(mark) }
        case .function(let callback):
            pushProxy(for: callback)
        }
    }

    /// A host function standing for a plugin function: arguments are copied in (data only),
    /// results copied out, and the plugin's limits apply to the call.
    private func pushProxy(for callback: LuaCallback) {
        guard let plugin = callback.runtime else { stack.pushNil(); return }
        plugin.pushReference(callback.ref)
        let key = ProxyKey(runtime: ObjectIdentifier(plugin), function: lua_topointer(plugin.L, -1) ?? UnsafeRawPointer(bitPattern: 1)!)
        plugin.stack.pop()
        if let box = proxies[key] { push(box: box); return }
        let box = LuaFunctionBox(name: callback.origin) { call in
            var arguments: [LuaCopy] = []
            for i in 1...max(call.count, 1) where call.count > 0 {
                do { arguments.append(try call.runtime.copy(at: i, path: "argument #\(i)", functions: false)) } catch {
                    throw LuaArgumentError("\(error)")
                }
            }
            let results = try callback.invoke(results: LUA_MULTRET, push: { plugin in
                for argument in arguments { plugin.push(copy: argument) }
                return Int32(arguments.count)
            }, read: { plugin, first in
                try (first..<(plugin.stack.top + 1)).map { try plugin.copy(at: $0, path: "result", functions: true) }
            })
            guard lua_checkstack(call.L, Int32(clamping: results.count + 4)) != 0 else { throw LuaArgumentError("too many results") }
            for result in results { call.runtime.push(copy: result) }
            return Int32(results.count)
        }
        proxies[key] = box
        push(box: box)
    }

    /// Calls `body` for each key/value of the table at `index` (key at -2, value at -1), raw
    /// (no `__pairs`), and leaves the stack as it found it whatever `body` does or throws.
    func forEachRaw(_ index: Int32, _ body: () throws -> Void) throws {
        let table = stack.absolute(index)
        pekit_cookie_list_settle(L, table)
        let base = stack.top
        stack.pushNil()
        while lua_next(L, table) != 0 {
            let keyTop = stack.top - 1
            do { try body() } catch { stack.setTop(base); throw error }
            stack.setTop(keyTop)
        }
    }
}

extension LuaRole {
    /// How errors name code of this role.
    var origin: String {
        switch self {
        case .host: return "script"
        case .sandbox: return "sandboxed script"
        case .plugin(let name, let file): return "plugin \"\(name)\" (\(file))"
        }
    }
}
