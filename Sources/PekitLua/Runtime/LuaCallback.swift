import CLua
import CLuaShim
import PekitCore

/// A Lua function kept in the registry so Swift code (a policy's `custom` closure) can call it
/// later, protected, and — for plugin code — under the instruction budget and memory cap.
final class LuaCallback: @unchecked Sendable {
    private weak var runtime: LuaRuntime?
    private let ref: Int32
    /// Says where the function came from in errors: `plugin "x" (plugins/x.lua): order`.
    let origin: String
    /// Plugin code runs under the sandbox limits; functions a script passed in do not.
    let limited: Bool

    /// Takes the function on top of the stack (pops it).
    init(runtime: LuaRuntime, origin: String, limited: Bool) {
        self.runtime = runtime
        self.origin = origin
        self.limited = limited
        ref = runtime.reference()
    }

    /// Calls the function with `arguments` and returns its first result converted by `read`.
    func call<T>(_ arguments: [PekitValue], read: (LuaRuntime, Int32) throws -> T) throws -> T {
        guard let runtime else { throw LuaError(message: "\(origin): the Lua runtime is gone") }
        let base = runtime.stack.top
        defer { runtime.stack.setTop(base) }
        runtime.pushReference(ref)
        for argument in arguments { runtime.push(argument) }
        do {
            try runtime.call(Int32(arguments.count), results: 1, traceback: false,
                             budget: limited ? runtime.options.pluginInstructionBudget : 0,
                             memoryLimit: limited ? runtime.options.pluginMemoryLimit : 0)
        } catch let error as LuaError {
            throw LuaError(message: "\(origin): \(error.message)")
        }
        do {
            return try read(runtime, runtime.stack.top)
        } catch {
            throw LuaError(message: "\(origin): \(error)")
        }
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
