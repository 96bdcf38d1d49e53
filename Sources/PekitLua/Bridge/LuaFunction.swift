import CLua
import CLuaShim
import PekitCore

/// A Swift function exposed to Lua. Boxes live as long as their runtime; Lua holds only an
/// unretained pointer to them (a light userdata upvalue of the C trampoline).
final class LuaFunctionBox {
    let name: String
    let body: (LuaCall) throws -> Int32
    init(name: String, body: @escaping (LuaCall) throws -> Int32) { self.name = name; self.body = body }
}

/// What a Swift function sees of one call from Lua: its arguments, and helpers that turn bad
/// ones into clear errors (`pekit.encode: bad argument #2 (table expected, got boolean)`, the
/// script's place put before it when raised: `script.lua:3: pekit.encode: …`).
package struct LuaCall {
    package let stack: LuaStack
    let name: String
    package let runtime: LuaRuntime
    /// The number of arguments passed.
    let count: Int32

    var L: OpaquePointer { stack.L }

    func badArgument(_ n: Int32, _ message: String) -> LuaArgumentError {
        LuaArgumentError("bad argument #\(n) (\(message))")
    }

    func typeError(_ n: Int32, expected: String) -> LuaArgumentError {
        badArgument(n, "\(expected) expected, got \(count < n ? "no value" : stack.typeName(n))")
    }

    /// A string argument as bytes; numbers are accepted and written as Lua writes them.
    func bytes(_ n: Int32) throws -> [UInt8] {
        switch stack.type(n) {
        case LUA_TSTRING: return stack.bytes(n) ?? []
        case LUA_TNUMBER: return Array(stack.toStringMeta(n).utf8)
        default: throw typeError(n, expected: "string")
        }
    }

    /// Calls `body` with the bytes of string argument `n` in place (valid only during the call).
    func withBytes<T>(_ n: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        guard stack.type(n) == LUA_TSTRING else { return try bytes(n).withUnsafeBufferPointer(body) }
        var length = 0
        guard let pointer = lua_tolstring(L, n, &length) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try pointer.withMemoryRebound(to: UInt8.self, capacity: length) { try body(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// Pushes a string that `write` makes in a buffer of `capacity` bytes, returning how many it
    /// wrote. A large one is written where Lua keeps it (`pekit_room_begin`: no copy of the
    /// result, which for encoding 1 MB was a third of the call); a small one in the runtime's
    /// scratch buffer, then copied. A capacity over 64 bytes is charged to the state's memory cap first.
    func pushWritten(capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) throws {
        if capacity > 64 { try MemoryBudget.charge(capacity) }
        // A block of megabytes is charged to Lua's collector before it is taken, not after (as
        // Lua charges its own): the cycle it starts can then free the last such result first,
        // and its pages, which the process already has, serve again. Taken after, every result
        // until the collector caught up was written into pages the kernel had to fault in and
        // zero (4 MB of CJK text encoded, 12 MB of result: about 15 ms of faults a call here,
        // against under 3 ms of encoding).
        if capacity >= Self.collectBeforeCapacity { _ = pekit_gc_step(L, Int32(clamping: capacity >> 10)) }
        if capacity >= PEKIT_ROOM_MIN_CAPACITY, let room = pekit_room_begin(L, capacity) {
            let written = room.withMemoryRebound(to: UInt8.self, capacity: capacity) {
                write(UnsafeMutableBufferPointer(start: $0, count: capacity))
            }
            pekit_room_push(L, room, written)
            return
        }
        let scratch = runtime.scratch
        let output = scratch.reserve(capacity)
        let written = write(output)
        stack.push(UnsafeBufferPointer(rebasing: output[..<written]))
        scratch.trim()
    }

    /// The size of a result from which `pushWritten` charges the collector first: 1 MB.
    static let collectBeforeCapacity = 1 << 20

    package func string(_ n: Int32) throws -> String { String(decoding: try bytes(n), as: UTF8.self) }

    func optionalString(_ n: Int32) throws -> String? { stack.isNoneOrNil(n) ? nil : try string(n) }

    /// Requires a table (or nothing) at `n`; returns whether there is one.
    func optionalTable(_ n: Int32) throws -> Bool {
        if stack.isNoneOrNil(n) { return false }
        guard stack.type(n) == LUA_TTABLE else { throw typeError(n, expected: "table") }
        return true
    }

    /// The strings of the list at argument `n` (raw, 1…#).
    func strings(_ n: Int32, expected: String) throws -> [String] {
        try (0..<stringCount(n, expected: expected)).map { i in
            _ = stack.rawGetIndex(n, Int64(i + 1))
            defer { stack.pop() }
            return stack.string(-1) ?? ""
        }
    }

    /// How many items the list at argument `n` has (raw, 1…#), each checked to be a string
    /// first, so that a bad item refuses the call before any is used.
    func stringCount(_ n: Int32, expected: String) throws -> Int {
        let count = stack.rawLength(n)
        for i in 0..<count {
            defer { stack.pop() }
            guard stack.rawGetIndex(n, Int64(i + 1)) == LUA_TSTRING else {
                throw badArgument(n, "\(expected) expected; item \(i + 1) is a \(stack.typeName(-1))")
            }
        }
        return count
    }

    func table(_ n: Int32) throws {
        guard stack.type(n) == LUA_TTABLE else { throw typeError(n, expected: "table") }
    }

    /// Refuses the call unless the caller's runtime may use `capability`
    /// (`pekit.http.get: not allowed in a plugin (it sends over the network)`).
    /// - Parameter what: the part of the call that needs it, when not the whole call (`field "body_file"`).
    func require(_ capability: LuaCapability, for what: String? = nil) throws {
        let role = runtime.role
        guard !role.allows(capability) else { return }
        throw LuaArgumentError("\(what.map { $0 + ": " } ?? "")not allowed \(role.place) (\(capability.reason))")
    }
}

/// The single entry point the C trampoline calls for every Swift function. It never lets a
/// Swift error or a Lua error cross: Swift errors become a pushed message and PEKIT_RAISE.
let luaDispatcher: pekit_dispatch_fn = { state, context in
    guard let state, let context else { return 0 }
    let box = Unmanaged<LuaFunctionBox>.fromOpaque(context).takeUnretainedValue()
    let stack = LuaStack(L: state)
    guard let runtime = LuaRuntime.runtime(for: state) else {
        if box.name.hasSuffix("__gc") { return 0 }  // finalizers running while the state closes
        stack.push("\(box.name): the pekit runtime is gone")
        return PEKIT_RAISE
    }
    let call = LuaCall(stack: stack, name: box.name, runtime: runtime, count: stack.top)
    // The one place a memory budget is set (MemoryBudget's seam): the script's cap, for
    // everything this call does in the core.
    return MemoryBudget.with(runtime.memoryAccount) {
        runtime.enter(state, name: box.name) { dispatch(box, call) }
    }
}

private func dispatch(_ box: LuaFunctionBox, _ call: LuaCall) -> Int32 {
    let stack = call.stack
    do {
        // The memory cap and the results are checked by LuaRuntime.enter.
        return try box.body(call)
    } catch let error as LuaRaisedValue {
        // The error value of a failed Lua call is on the stack already: pass it on unchanged.
        _ = error
        return PEKIT_RAISE
    } catch is MemoryBudget.Exceeded {
        stack.push("\(box.name): not enough memory (the limit is \(pekit_memory_limit(call.L) >> 20) MB)")
        return PEKIT_RAISE
    } catch {
        stack.push("\(box.name): \(luaMessage(error))")
        return PEKIT_RAISE
    }
}

/// Thrown by a Swift function that left a Lua error value on the stack to re-raise as it is.
struct LuaRaisedValue: Error {}
