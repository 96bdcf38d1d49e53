import CLua
import CLuaShim
import Foundation
import PekitCore
import PekitHTTP

/// Polling: `pekit.http.get(url, {["until"] = function(r) … end, every = 1, max_time = 30})`
/// sends until the condition holds, waiting `every` seconds (or what `Retry-After` asks,
/// whichever is longer) between tries, and fails after `max_time` with the last status and the
/// number of tries. Only a method a retry may repeat is polled (`retry = {all_methods = true}`
/// allows the others, as it does for retries).
extension HTTPModule {
    /// The fields polling adds to a send's table (`until` is a Lua keyword: `["until"] = f`).
    static let pollFields = ["until", "every", "max_time"]

    struct Poll {
        let condition: LuaCallback
        let every: Double
        let maxTime: Double
    }

    /// The polling a send's table asks for (argument `n`), or nil.
    static func poll(from call: LuaCall, argument n: Int32, method: String, options: SendOptions) throws -> Poll? {
        guard try call.optionalTable(n), let fields = try LuaFields.read(call, argument: n, known: RequestModule.requestFields + sendFields + pollFields) else { return nil }
        guard fields.has("until") else {
            for name in ["every", "max_time"] where fields.has(name) { throw fields.error(name, "goes with [\"until\"] = function(response) … end") }
            return nil
        }
        let condition = try fields.with("until") { index -> LuaCallback in
            guard call.stack.type(index) == LUA_TFUNCTION else { throw fields.error("until", "expected a function(response) that returns true when done") }
            call.stack.pushValue(index)
            return LuaCallback(runtime: call.runtime, origin: "until")
        }
        guard let condition else { return nil }
        let every = try fields.seconds("every") ?? 1
        let maxTime = try fields.seconds("max_time") ?? 30
        if !(options.retry?.allMethods ?? false) && !RetryPolicy.isIdempotent(method) {
            throw fields.error("until", "\(method) is not idempotent: polling would send it again; give retry = {all_methods = true} to poll it anyway")
        }
        return Poll(condition: condition, every: every, maxTime: maxTime)
    }

    /// Sends until the condition holds; the response it held for is the result.
    static func send(_ request: PekitRequest, options: SendOptions, polling poll: Poll, _ call: LuaCall) throws -> Int32 {
        let runtime = call.runtime
        let client = try httpClient(runtime)
        let started = Timestamp.monotonic()
        var tries = 0
        while true {
            tries += 1
            let response: PekitResponse
            do { response = try client.send(request, options: prepared(options, for: request, in: runtime)) } catch where error is HTTPError || error is RequestError {
                throw LuaArgumentError(Self.message(for: error, request))
            }
            let holds = try poll.condition.invoke(results: 1, push: { rt in push(response: response, in: rt); return 1 }, read: { rt, first in rt.stack.bool(first) })
            if holds {
                push(response: response, in: runtime)
                return 1
            }
            let now = Timestamp.monotonic()
            // (An HTTP-date in Retry-After is read against the wall clock.)
            let asked = response.header("Retry-After").flatMap { RetryPolicy.retryAfterSeconds($0.description, now: Timestamp.now()) } ?? 0
            let wait = max(poll.every, asked)
            let elapsed = now - started
            if elapsed + wait > poll.maxTime {
                let last = "\(response.status)" + (response.reason.isEmpty ? "" : " \(response.reason)")
                throw LuaArgumentError("\(request.method) \(request.url): the condition did not hold after \(tries) \(tries == 1 ? "try" : "tries") in "
                                       + String(format: "%.1f", elapsed) + " s (max_time \(Self.seconds(poll.maxTime)) s); the last response: \(last)")
            }
            // Slept in slices, so Ctrl-C ends the wait at once.
            let until = now + wait
            while Timestamp.monotonic() < until {
                if pekit_interrupt_pending() != 0 {
                    var interrupted = LuaError(message: "interrupted")
                    interrupted.isInterrupt = true
                    throw interrupted
                }
                usleep(UInt32(min(0.05, max(0, until - Timestamp.monotonic())) * 1_000_000))
            }
        }
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}
