/// Whether a runtime is still there, for what may outlive it (a callback in a policy, a sink, a
/// plugin's runtime's host), without a weak reference to it. A weak reference moves an object's
/// reference counts into a side table for good, and every retain and release of it then takes
/// the slow path: one per call from Lua, half of what a short `pekit.encode` cost (issue 47).
final class RuntimeLifetime: @unchecked Sendable {
    /// Valid while `isAlive`: the runtime clears the flag as it goes.
    private unowned(unsafe) let runtime: LuaRuntime
    /// Set false by the runtime's deinit; read on the runtime's own thread (a state is never
    /// used from another), and by a send's notice on the thread the runtime waits on.
    var isAlive = true

    init(_ runtime: LuaRuntime) { self.runtime = runtime }

    /// The runtime, or nil once it is gone.
    var current: LuaRuntime? { isAlive ? runtime : nil }
}
