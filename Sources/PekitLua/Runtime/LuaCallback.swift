import CLua
import CLuaShim
import PekitCore

/// A Lua function kept in the registry so Swift code (a policy's `custom` closure, a cookie
/// filter, a sink) can call it later, protected. It runs on the state of its runtime's call in
/// progress (the coroutine that called pekit, if one did) and, in a plugin's runtime, under that
/// plugin's instruction budget and memory cap.
final class LuaCallback: @unchecked Sendable {
    /// The runtime, or nil once it is gone.
    var runtime: LuaRuntime? { lifetime.current }
    private let lifetime: RuntimeLifetime
    /// The function's reference in its runtime's registry.
    let ref: Int32
    /// Says where the function came from in errors: `plugin "x" (plugins/x.lua): order`.
    let origin: String

    /// Takes the function on top of the runtime's current stack (pops it).
    init(runtime: LuaRuntime, origin: String) {
        lifetime = runtime.lifetime
        self.origin = origin
        ref = runtime.reference()
    }

    deinit { runtime?.releaseReference(ref) }

    /// Calls the function with the arguments `push` pushes (returning their count) and reads its
    /// results (at `first`…top) with `read`. Errors name `origin`.
    func invoke<T>(results: Int32, push: (LuaRuntime) throws -> Int32, read: (LuaRuntime, _ first: Int32) throws -> T) throws -> T {
        guard let runtime else { throw LuaError(message: "\(origin): the Lua runtime is gone") }
        let stack = runtime.stack
        let base = stack.top
        defer { runtime.stack.setTop(base) }
        guard lua_checkstack(stack.L, 8) != 0 else { throw LuaError(message: "\(origin): Lua stack exhausted") }
        runtime.pushReference(ref)
        let count = try push(runtime)
        do {
            try runtime.call(count, results: results, traceback: false)
        } catch var error as LuaError {
            error.message = "\(origin): \(error.message)"
            throw error
        }
        do {
            return try read(runtime, base + 1)
        } catch {
            throw LuaError(message: "\(origin): \(error)")
        }
    }

    /// Calls the function with `arguments` and returns its first result converted by `read`.
    func call<T>(_ arguments: [PekitValue], read: (LuaRuntime, Int32) throws -> T) throws -> T {
        try invoke(results: 1, push: { runtime in
            for argument in arguments { runtime.push(argument) }
            return Int32(arguments.count)
        }, read: read)
    }

    /// A comparator for `Policy.Order.custom`.
    var comparator: @Sendable (ByteString, ByteString) throws -> Bool {
        { a, b in try self.call([.string(a), .string(b)]) { runtime, i in runtime.stack.bool(i) } }
    }

    /// A key builder for `ArrayEncoding.custom` (Lua sees a 1-based index, as Lua does, and
    /// whether the element is nested).
    var arrayKey: @Sendable (ByteString, Int, Bool) throws -> ByteString {
        { key, index, nested in try self.call([.string(key), .integer(Int64(index + 1)), .boolean(nested)], read: Self.readKey) }
    }

    /// A key builder for `ObjectEncoding.custom`.
    var objectKey: @Sendable (ByteString, ByteString) throws -> ByteString {
        { prefix, key in try self.call([.string(prefix), .string(key)], read: Self.readKey) }
    }

    private static func readKey(_ runtime: LuaRuntime, _ i: Int32) throws -> ByteString {
        let stack = runtime.stack
        if stack.type(i) == LUA_TNUMBER { return ByteString(stack.toStringMeta(i)) }
        guard let bytes = stack.bytes(i) else { throw LuaArgumentError("the function must return a string, not \(stack.typeName(i))") }
        return ByteString(bytes)
    }
}
