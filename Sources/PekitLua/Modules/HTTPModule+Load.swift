import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// Load runs from Lua: `pekit.http.load{request = …, check = …, connections = …}` in a script,
/// and `pekit load SCRIPT.lua`, which runs the script and then sends the `request` and `check`
/// it left as globals. Both read the request and the check here, and run `LoadRunner`.
///
/// `request` is what `pekit.http.all` takes as an item (a URL, a built request, or a table of
/// request fields and send options), sent again and again, or a function of the request's
/// number (from 1) returning one (nil ends the run). `scenario`, instead of `request`, is a list
/// of steps each virtual user sends in turn, each once the one before was answered: an item as
/// above, or a function `(user, previous)` of the user's own table (kept across its steps and
/// rounds: a token a login returned) and the answer to the step before (nil for the first)
/// returning one (nil stops that user). `check(response)` counts an answer as an error when it
/// returns false or a message, or raises one; without it, a status of 400 or more is the error.
extension HTTPModule {
    static let loadFields = ["request", "scenario", "check", "connections", "rate", "duration", "requests", "warmup", "timeout"]

    /// A scenario's step: one request, or a function that makes it.
    private enum Step {
        case fixed(PekitRequest, SendOptions)
        case function(LuaCallback)
    }

    /// The runner of the request (or scenario) and check at stack indexes `request`, `scenario`
    /// and `check` (0: none).
    static func loadRunner(plan: LoadPlan, request: Int32, check: Int32, scenario: Int32 = 0, in runtime: LuaRuntime, naming: HTTPError.Naming = .lua) throws -> LoadRunner {
        let stack = runtime.stack
        let call = LuaCall(stack: stack, name: "pekit.http.load", runtime: runtime, count: 0)
        let verdict = try checkFunction(check, in: runtime)
        if scenario != 0, !stack.isNoneOrNil(scenario) {
            guard request == 0 || stack.isNoneOrNil(request) else { throw LuaArgumentError("give request or scenario, not both") }
            return LoadRunner(plan: plan, scenario: try loadScenario(at: scenario, plan: plan, call), check: verdict, naming: naming)
        }
        var source: LoadRunner.Source
        var constant: (PekitRequest, SendOptions)?
        switch stack.type(request) {
        case LUA_TFUNCTION:
            stack.pushValue(request)
            let function = LuaCallback(runtime: runtime, origin: "request")
            // A table shaped as the one before it is made from that one's template.
            let reader = LoadRequestReader()
            source = { n in
                try function.invoke(results: 1, push: { runtime in runtime.stack.push(integer: Int64(n + 1)); return 1 }) { runtime, first in
                    if runtime.stack.isNoneOrNil(first) { return nil }
                    let (request, options) = try reader.item(at: first, call)
                    return (request, prepared(options, for: request, in: runtime))
                }
            }
        case LUA_TNIL, LUA_TNONE:
            throw LuaArgumentError("no request to send: give request = a URL, a request table or a function returning one (or scenario = a list of steps)")
        default:
            // One request sent again and again: the runner may take its fast path for it.
            let (built, options) = try batchItem(at: request, call, argument: 1, base: SendOptions())
            constant = (built, prepared(options, for: built, in: runtime))
            source = { _ in nil }
        }
        if let (request, options) = constant { return LoadRunner(plan: plan, request: request, options: options, check: verdict, naming: naming) }
        return LoadRunner(plan: plan, source: source, check: verdict, naming: naming)
    }

    /// The scenario at stack index `index`: its steps, each user's table made on its first step
    /// (in the open model let go after its last, so that a long run does not keep them all).
    private static func loadScenario(at index: Int32, plan: LoadPlan, _ call: LuaCall) throws -> LoadRunner.Scenario {
        let stack = call.stack, runtime = call.runtime
        guard stack.type(index) == LUA_TTABLE else { throw LuaArgumentError("scenario: a list of steps expected (requests or functions), got \(stack.typeName(index))") }
        let count = Int(lua_rawlen(stack.L, index))
        guard count >= 1 else { throw LuaArgumentError("scenario: give at least one step") }
        var steps: [Step] = []
        for n in 1...count {
            _ = stack.rawGetIndex(index, Int64(n))
            if stack.type(-1) == LUA_TFUNCTION {
                steps.append(.function(LuaCallback(runtime: runtime, origin: "scenario step \(n)")))
            } else {
                let (request, options) = try batchItem(at: stack.top, call, argument: 1, base: SendOptions())
                steps.append(.fixed(request, prepared(options, for: request, in: runtime)))
                stack.pop(1)
            }
        }
        var tables: [Int: Int32] = [:]
        return LoadRunner.Scenario(steps: count) { user, index, previous in
            switch steps[index] {
            case .fixed(let request, let options): return (request, options)
            case .function(let function):
                if tables[user] == nil {
                    runtime.stack.newTable()
                    tables[user] = runtime.reference()
                }
                let made: (request: PekitRequest, options: SendOptions)? = try function.invoke(results: 1, push: { runtime in
                    runtime.pushReference(tables[user] ?? 0)
                    if let previous { push(response: previous, in: runtime) } else { runtime.stack.pushNil() }
                    return 2
                }) { runtime, first in
                    if runtime.stack.isNoneOrNil(first) { return nil }
                    let (request, options) = try batchItem(at: first, call, argument: 1, base: SendOptions())
                    return (request, prepared(options, for: request, in: runtime))
                }
                // In the open model a user goes through the steps once: its table is let go after
                // its last step, or when it stops.
                if plan.rate != nil, index == count - 1 || made == nil, let ref = tables.removeValue(forKey: user) { runtime.releaseReference(ref) }
                return made
            }
        }
    }

    /// The check function at stack index `check` (0 or nil: none).
    private static func checkFunction(_ check: Int32, in runtime: LuaRuntime) throws -> LoadRunner.Check? {
        let stack = runtime.stack
        var verdict: LoadRunner.Check?
        if check != 0, stack.type(check) != LUA_TNIL {
            guard stack.type(check) == LUA_TFUNCTION else { throw LuaArgumentError("check: a function(response) expected, got \(stack.typeName(check))") }
            stack.pushValue(check)
            let function = LuaCallback(runtime: runtime, origin: "check")
            verdict = { response in
                do {
                    return try function.invoke(results: 1, push: { runtime in push(response: response, in: runtime); return 1 }) { runtime, first in
                        switch runtime.stack.type(first) {
                        case LUA_TBOOLEAN: return runtime.stack.bool(first) ? nil : "check returned false"
                        case LUA_TSTRING: return runtime.stack.string(first) ?? "check failed"
                        default: return nil
                        }
                    }
                } catch {
                    return "\(error)"
                }
            }
        }
        return verdict
    }

    /// The runner of what a load script left as its globals `request` and `check`
    /// (`pekit load SCRIPT.lua`).
    /// - Throws: `LuaArgumentError` when `request` is missing or not something to send.
    package static func loadRunner(plan: LoadPlan, globalsOf runtime: LuaRuntime, naming: HTTPError.Naming) throws -> LoadRunner {
        let stack = runtime.stack
        let base = stack.top
        defer { stack.setTop(base) }
        pekit_pushglobaltable(runtime.L)
        let globals = stack.top
        _ = stack.rawGet(globals, "request")
        let request = stack.top
        _ = stack.rawGet(globals, "scenario")
        let scenario = stack.top
        _ = stack.rawGet(globals, "check")
        return try loadRunner(plan: plan, request: request, check: stack.top, scenario: scenario, in: runtime, naming: naming)
    }

    static func installLoadFunction(into http: Int32, in runtime: LuaRuntime) {
        runtime.setFunction(http, "pekit.http", "load") { call in
            try call.require(.network)
            try call.table(1)
            guard let fields = try LuaFields.read(call, argument: 1, known: loadFields) else { throw call.typeError(1, expected: "table") }
            var plan = LoadPlan(duration: nil)
            if let n = try fields.integer("connections", in: 1...10_000) { plan.connections = n }
            plan.rate = try fields.number("rate", in: 1e-9...10_000_000, expected: "requests a second, more than 0")
            plan.duration = try fields.seconds("duration")
            plan.requests = try fields.integer("requests", in: 1...Int64(Int32.max))
            if let warmup = try fields.number("warmup", in: 0...3600, expected: "seconds from 0 to 3600") { plan.warmup = warmup }
            if let timeout = try fields.seconds("timeout") { plan.timeout = timeout }
            if plan.duration == nil && plan.requests == nil { throw call.badArgument(1, "say how long the run is: duration = seconds or requests = N") }
            let stack = call.stack
            _ = stack.rawGet(1, "request")
            let request = stack.top
            _ = stack.rawGet(1, "scenario")
            let scenario = stack.top
            _ = stack.rawGet(1, "check")
            let runner = try loadRunner(plan: plan, request: request, check: stack.top, scenario: scenario, in: call.runtime)
            let result: LoadResult
            do { result = try runner.run(stop: { pekit_interrupt_pending() != 0 }) } catch let invalid as LoadPlan.Invalid {
                throw call.badArgument(1, invalid.description)
            }
            push(load: result, in: call.runtime)
            return 1
        }
    }

    /// Pushes a run's result: `{requests=, seconds=, rps=, errors={total=, KIND=…}, statuses={[200]=…},
    /// unanswered=, behind=, latency=<pekit.histogram>, corrected=<pekit.histogram or nil>,
    /// phases={connect=<pekit.histogram>, …}, messages={…}}`, latencies in microseconds.
    static func push(load result: LoadResult, in runtime: LuaRuntime) {
        let stack = runtime.stack
        stack.newTable(nrec: 12)
        stack.push(integer: result.requests); stack.rawSet(-2, "requests")
        stack.push(number: result.seconds); stack.rawSet(-2, "seconds")
        stack.push(number: result.requestsPerSecond); stack.rawSet(-2, "rps")
        stack.push(integer: result.unanswered); stack.rawSet(-2, "unanswered")
        stack.push(integer: result.behind); stack.rawSet(-2, "behind")
        stack.push(integer: result.bytesReceived); stack.rawSet(-2, "bytes_received")
        stack.newTable()
        stack.push(integer: result.errorCount); stack.rawSet(-2, "total")
        for (kind, n) in result.errors.sorted(by: { $0.key < $1.key }) { stack.push(integer: n); stack.rawSet(-2, kind) }
        stack.rawSet(-2, "errors")
        stack.newTable()
        for (status, n) in result.statuses.sorted(by: { $0.key < $1.key }) { stack.push(integer: n); stack.rawSetIndex(-2, Int64(status)) }
        stack.rawSet(-2, "statuses")
        stack.newTable()
        for (i, message) in result.messages.enumerated() {
            stack.newTable(nrec: 2)
            stack.push(message.text); stack.rawSet(-2, "text")
            stack.push(integer: message.count); stack.rawSet(-2, "count")
            stack.rawSetIndex(-2, Int64(i + 1))
        }
        stack.rawSet(-2, "messages")
        PekitModule.install(HistogramModule.self, in: runtime)
        HistogramModule.push(result.latency, in: runtime); stack.rawSet(-2, "latency")
        if let corrected = result.corrected { HistogramModule.push(corrected, in: runtime); stack.rawSet(-2, "corrected") }
        stack.newTable()
        for phase in result.phases { HistogramModule.push(phase.histogram, in: runtime); stack.rawSet(-2, phase.name) }
        stack.rawSet(-2, "phases")
    }
}
