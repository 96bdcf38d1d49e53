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
        if !(options.retry?.allMethods ?? false) && !SendRetryPolicy.isIdempotent(method) {
            throw fields.error("until", "\(method) is not idempotent: polling would send it again; give retry = {all_methods = true} to poll it anyway")
        }
        return Poll(condition: condition, every: every, maxTime: maxTime)
    }

    /// Sends until the condition holds; the response it held for is the result. A service that
    /// is still starting is polled through: a send that fails (nothing listens yet, a reset, a
    /// timeout) and a condition that raises an error (a 503 page that is not the JSON it reads)
    /// count as "not yet", as Hurl's `retry` takes any error of an entry, and the failure after
    /// `max_time` names the last error and the last response with the start of its body.
    static func send(_ request: PekitRequest, options: SendOptions, polling poll: Poll, _ call: LuaCall) throws -> Int32 {
        let runtime = call.runtime
        let client = try httpClient(runtime)
        let started = UnixTime.monotonic()
        var tries = 0
        var lastResponse: PekitResponse?
        var lastError: String?
        while true {
            tries += 1
            var retryAfter = 0.0
            do {
                let response = try client.sendBlocking(request, options: prepared(options, for: request, in: runtime))
                lastResponse = response
                lastError = nil
                let holds: Bool
                do {
                    holds = try poll.condition.invoke(results: 1, push: { rt in push(response: response, in: rt); return 1 }, read: { rt, first in rt.stack.bool(first) })
                } catch let error as LuaError where !error.isInterrupt {
                    holds = false
                    lastError = error.message  // "until: …", as the condition's errors are named
                }
                if holds {
                    push(response: response, in: runtime)
                    return 1
                }
                // (An HTTP-date in Retry-After is read against the wall clock.)
                retryAfter = response.header("Retry-After").flatMap { SendRetryPolicy.retryAfterSeconds($0.description, now: UnixTime.now()) } ?? 0
            } catch let error as HTTPError {
                // Named once: the message this one is part of starts with the request.
                let text = Self.message(for: error, request), prefix = "\(request.method) \(request.url): "
                lastError = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
            } catch let error as RequestError {
                // The request itself is wrong: no later try can mend it.
                throw LuaArgumentError(Self.message(for: error, request))
            }
            let now = UnixTime.monotonic()
            let wait = max(poll.every, retryAfter)
            let elapsed = now - started
            if elapsed + wait > poll.maxTime {
                var message = "\(request.method) \(request.url): the condition did not hold after \(tries) \(tries == 1 ? "try" : "tries") in "
                    + String(format: "%.1f", elapsed) + " s (max_time \(Self.seconds(poll.maxTime)) s)"
                if let lastError { message += "; the last error: \(lastError)" }
                if let response = lastResponse {
                    message += "; the last response: \(response.status)" + (response.reason.isEmpty ? "" : " \(response.reason)")
                    if !response.body.isEmpty { message += ", its body: " + bodyExcerpt(response.body) }
                } else {
                    message += "; no response came"
                }
                throw LuaArgumentError(message)
            }
            // Slept in slices, so Ctrl-C ends the wait at once.
            let until = now + wait
            while UnixTime.monotonic() < until {
                // A test's time limit ends the wait; the call's return stops the test.
                if pekit_time_limit_left(call.L) == 0 { throw LuaArgumentError("stopped at the test's time limit") }
                if pekit_interrupt_pending() != 0 {
                    var interrupted = LuaError(message: "interrupted")
                    interrupted.isInterrupt = true
                    throw interrupted
                }
                usleep(UInt32(min(0.05, max(0, until - UnixTime.monotonic())) * 1_000_000))
            }
        }
    }

    /// The start of a body for a one-line message: up to 200 bytes, control bytes escaped, and
    /// the size when there is more.
    static func bodyExcerpt(_ body: [UInt8]) -> String {
        let limit = 200
        let shown = printable(String(decoding: body.prefix(limit), as: UTF8.self), keepingLineBreaks: false)
        return shown + (body.count > limit ? "… (\(body.count) bytes)" : "")
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}
