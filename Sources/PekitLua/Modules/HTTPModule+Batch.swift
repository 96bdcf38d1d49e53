import CLua
import CLuaShim
import Foundation
import PekitCore
import PekitHTTP

/// `pekit.http.all(list [, options])`: many requests at once on one engine (`HTTPEngine`), at
/// most `concurrency` in flight, the results in the order given with a failure as an error
/// value in its slot.
extension HTTPModule {
    static let batchFields = ["concurrency"]

    /// The options every send shares, with a request's own cookie and signing defaults.
    static func merging(_ base: SendOptions, defaults: SendOptions) -> SendOptions {
        var options = base
        if let jar = defaults.jar { options.jar = jar }
        options.cookieHeaderFromJar = defaults.cookieHeaderFromJar
        options.sign = defaults.sign
        return options
    }

    /// One item of a batch: a URL (string or pekit.url), a built request, or a table of request
    /// fields and send options (as `pekit.http.get`'s second argument, with `url` and `method`).
    static func batchItem(at index: Int32, _ call: LuaCall, argument n: Int32, base: SendOptions) throws -> (PekitRequest, SendOptions) {
        let stack = call.stack
        if let stored = RequestModule.heldRequest(at: index, in: call.runtime) {
            return (stored.request, Self.merging(base, defaults: stored.sendDefaults))
        }
        if stack.type(index) == LUA_TTABLE {
            let (builder, options) = try tableItem(at: index, call, argument: n, base: base)
            return (try builder.build(), options)
        }
        let builder = RequestBuilder(url: try URLModule.urlOrString(at: index, call))
        return (try builder.build(), Self.merging(base, defaults: SendOptions(cookiesOf: builder)))
    }

    /// A table item's builder and send options (`batchItem`), the request not yet built.
    static func tableItem(at index: Int32, _ call: LuaCall, argument n: Int32, base: SendOptions) throws -> (RequestBuilder, SendOptions) {
        // The table's names are checked once, for the request and its send options.
        let fields = try LuaFields.read(call, argument: n, known: Self.itemFields, knownSet: Self.itemFieldSet, at: index)
        let builder = try RequestModule.requestBuilder(from: call, table: index, fields: fields, argument: n)
        let defaults = Self.merging(base, defaults: SendOptions(cookiesOf: builder))
        return (builder, try sendOptions(from: call, argument: n, at: index, base: defaults, fields: fields))
    }

    /// Pushes an error value: a table `{error = message, method =, url =, code = curl's code}`
    /// whose `tostring` is the message (a response never has an `error` field).
    static func push(error: Error, for request: PekitRequest, in runtime: LuaRuntime) {
        let stack = runtime.stack
        stack.newTable(nrec: 4)
        stack.push(Self.message(for: error, request)); stack.rawSet(-2, "error")
        stack.push(request.method.rawValue); stack.rawSet(-2, "method")
        stack.push(request.url); stack.rawSet(-2, "url")
        if case HTTPError.transfer(_, _, let code, _, _) = error { stack.push(integer: Int64(code)); stack.rawSet(-2, "code") }
        runtime.getRegistry(.errorMetatable)
        lua_setmetatable(runtime.L, -2)
    }

    static func installBatchFunctions(into http: Int32, in runtime: LuaRuntime) {
        runtime.setFunction(http, "pekit.http", "all") { call in
            try call.require(.network)
            let runtime = call.runtime, stack = call.stack
            try call.table(1)
            var concurrency = 10
            var watcher: LuaCallback?
            var progressLine = true
            if try call.optionalTable(2), let fields = try LuaFields.read(call, argument: 2, known: Self.sendFields + Self.batchFields) {
                if let limit = try fields.integer("concurrency", in: 1...10_000) { concurrency = limit }
                try fields.with("progress") { i in
                    // true: pekit's own line (the default where there is one); false: none.
                    if stack.type(i) == LUA_TBOOLEAN { progressLine = stack.bool(i); return }
                    guard stack.type(i) == LUA_TFUNCTION else { throw fields.mismatch("progress", expected: "true, false or a function(info)") }
                    stack.pushValue(i)
                    watcher = LuaCallback(runtime: runtime, origin: "progress")
                }
            }
            var base = try sendOptions(from: call, argument: 2, base: SendOptions(), alsoAllowed: Self.batchFields)
            base.progress = nil  // here it watches the batch, not each transfer
            // Every item is read and built before anything is sent: a mistake in item 900 costs no request.
            var batch: [(PekitRequest, SendOptions)] = []
            let count = stack.rawLength(1)
            batch.reserveCapacity(Int(count))
            for i in 0..<count {
                _ = stack.rawGetIndex(1, Int64(i + 1))
                defer { stack.pop() }
                do {
                    let (request, options) = try batchItem(at: stack.top, call, argument: 1, base: base)
                    batch.append((request, prepared(options, for: request, in: runtime)))
                } catch {
                    throw LuaArgumentError("item \(i + 1): \(error)")
                }
            }
            // progress = true or false read with the options is the batch's, said above.
            state(runtime).progressLine = nil
            let client = try httpClient(runtime)
            let report = BatchProgress(total: batch.count, inFlight: min(concurrency, batch.count), watcher: watcher,
                                       display: watcher == nil && progressLine ? runtime.progressDisplay : nil)
            let results = client.sendAllBlocking(batch, concurrency: concurrency) { _, result in
                if case .failure = result { report.failed += 1 } else { report.succeeded += 1 }
                report.changed()
            }
            report.finish()
            stack.newTable(narr: Int32(results.count))
            for (i, result) in results.enumerated() {
                switch result {
                case .success(let response): push(response: response, in: runtime)
                case .failure(let error): push(error: error, for: batch[i].0, in: runtime)
                }
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            return 1
        }
    }
}

/// A batch's progress for a script's `progress = function(info)`: `{done=, failed=, in_flight=,
/// total=, elapsed=}` about five times a second and once at the end. An error in the function
/// does not stop the batch (Ctrl-C does): it is said once on standard error.
final class BatchProgress {
    let total: Int, concurrency: Int
    var succeeded = 0, failed = 0
    private let watcher: LuaCallback?
    private let display: ProgressDisplay?
    private let started = Date()
    private var last = Date.distantPast
    private var warned = false

    init(total: Int, inFlight concurrency: Int, watcher: LuaCallback?, display: ProgressDisplay?) {
        self.total = total; self.concurrency = concurrency; self.watcher = watcher; self.display = display
    }

    func changed() {
        guard watcher != nil || display != nil, Date().timeIntervalSince(last) >= 0.2 else { return }
        last = Date()
        tell()
    }

    func finish() {
        if watcher != nil || display != nil { tell() }
        display?.finish()
    }

    private func tell() {
        if let display {
            let done = succeeded + failed
            display.batch(done, failed, min(concurrency, total - done), total, Date().timeIntervalSince(started))
        }
        guard let watcher else { return }
        let done = succeeded + failed
        let info = PekitValue.map(PekitMap(ordered: [
            .init(key: "done", value: .integer(Int64(done))), .init(key: "failed", value: .integer(Int64(failed))),
            .init(key: "in_flight", value: .integer(Int64(min(concurrency, total - done)))),
            .init(key: "total", value: .integer(Int64(total))),
            .init(key: "elapsed", value: .number(Date().timeIntervalSince(started))),
        ]))
        do { try watcher.call([info]) { _, _ in () } } catch {
            if !warned { warned = true; fputs("pekit.http.all: progress: \(error)\n", stderr) }
        }
    }
}
