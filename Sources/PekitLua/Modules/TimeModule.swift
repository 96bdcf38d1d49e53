import CLua
import CLuaShim
import Glibc
import PekitCore
import PekitHTTP

/// `pekit.time`: Unix seconds (fractions allowed), the text formats HTTP and signing use, and a
/// sleep Ctrl-C can stop.
enum TimeModule: LuaModule {
    static let name = "time"

    /// The wall clock in whole Unix seconds (what signatures carry).
    static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec)
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            let formats = UnixTime.Format.allCases.map { $0.rawValue }
            func format(_ call: LuaCall, _ n: Int32) throws -> UnixTime.Format {
                guard let name = try call.optionalString(n) else { return .iso8601 }
                guard let format = UnixTime.Format(rawValue: name) else {
                    throw call.badArgument(n, "format \(alternatives(formats)) expected, got \"\(name)\"")
                }
                return format
            }
            setFunction(module, "pekit.time", "now") { call in
                call.stack.push(number: UnixTime.now())
                return 1
            }
            setFunction(module, "pekit.time", "format") { call in
                guard call.stack.type(1) == LUA_TNUMBER, let t = call.stack.number(1) else { throw call.typeError(1, expected: "number (Unix seconds)") }
                guard let text = UnixTime.format(t, try format(call, 2)) else {
                    throw call.badArgument(1, "\(call.stack.toStringMeta(1)) is not a time from year 1 to 9999")
                }
                call.stack.push(ByteString(text))
                return 1
            }
            setFunction(module, "pekit.time", "parse") { call in
                var spec = timespec()
                clock_gettime(CLOCK_REALTIME, &spec)
                let t = try UnixTime.parse(try call.string(1), try format(call, 2), now: Double(spec.tv_sec))
                if t == t.rounded(), abs(t) < 9e15 { call.stack.push(integer: Int64(t)) } else { call.stack.push(number: t) }
                return 1
            }
            setFunction(module, "pekit.time", "sleep") { call in
                try call.require(.waiting)
                guard call.stack.type(1) == LUA_TNUMBER, var seconds = call.stack.number(1), seconds.isFinite, seconds >= 0, seconds <= 1e6 else {
                    throw call.typeError(1, expected: "number of seconds from 0 to 1000000")
                }
                let runtime = call.runtime, scheduler = runtime.tasks
                // No sleep outlasts a test's time limit: it ends there, and the return stops the test.
                let left = pekit_time_limit_left(call.L)
                if left >= 0 { seconds = min(seconds, left + 0.002) }
                // In a task (pekit.spawn): the task is suspended and the others run.
                if let current = scheduler.suspendable(call.L) {
                    lua_settop(call.L, 0)
                    scheduler.sleep(current, seconds: seconds)
                    return PEKIT_YIELD
                }
                // Elsewhere, spawned tasks run meanwhile (when none is running already).
                let deadline = PekitClient.now() + seconds
                if !scheduler.isRunning, !HTTPModule.isSending(runtime) {
                    try? scheduler.run(runtime, until: { false }, deadline: deadline)
                }
                // In short steps, so that Ctrl-C stops it at once.
                while PekitClient.now() < deadline {
                    if pekit_interrupt_pending() != 0 { throw LuaError(message: "interrupted") }
                    var spec = timespec(tv_sec: 0, tv_nsec: Int(min(0.02, max(0, deadline - PekitClient.now())) * 1e9))
                    nanosleep(&spec, nil)
                }
                if pekit_interrupt_pending() != 0 { throw LuaError(message: "interrupted") }
                return 0
            }
        }
    }
}
