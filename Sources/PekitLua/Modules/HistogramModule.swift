import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// `pekit.histogram{lowest = 1, highest = 3600e6, digits = 3}`: HdrHistogram's latency recorder
/// (`LatencyHistogram`), the one `pekit load` keeps, for scripts that time things themselves.
/// Values are whole numbers (microseconds, by convention); a fraction is dropped.
///
///     local h = pekit.histogram()
///     h:record(1200)                 -- one value
///     h:record_corrected(250000, 10000) -- and the values a 10 ms schedule would have seen
///     print(h:percentile(99.9), h:max(), h:count())
enum HistogramModule: LuaModule {
    static let name = "histogram"

    /// The histograms a runtime's scripts hold. Their counts live in Swift, out of Lua's sight,
    /// so their bytes are capped here (`limit`), after a collection has let unreachable ones go.
    final class State {
        let histograms = LuaHandleTable<Box>(metatable: "pekit.histogram")
        var bytes: Int { histograms.objects.values.reduce(0) { $0 + $1.histogram.footprint } }
    }

    final class Box {
        var histogram: LatencyHistogram
        init(_ histogram: LatencyHistogram) { self.histogram = histogram }
    }

    /// The most bytes of counts a runtime's live histograms may hold (256 MB: over a thousand of
    /// the default layout; one at 5 digits up to an hour takes 16 MB).
    static let limit = 256 << 20

    static func state(_ runtime: LuaRuntime) -> State { runtime.moduleState(State.self, State.init) }

    static func box(_ call: LuaCall, _ n: Int32 = 1) throws -> Box {
        try state(call.runtime).histograms.object(at: n, call, expected: "pekit.histogram")
    }

    /// Argument `n` as a value to record: a finite number, its fraction dropped.
    static func value(_ call: LuaCall, _ n: Int32, _ what: String) throws -> Int64 {
        guard let number = call.stack.number(n), number.isFinite, abs(number) < 9.2e18 else {
            throw call.badArgument(n, "\(what) expected (a number), got \(call.stack.typeName(n))")
        }
        return Int64(number.rounded(.towardZero))
    }

    /// Pushes a handle for `histogram` (the module installed).
    static func push(_ histogram: LatencyHistogram, in runtime: LuaRuntime) {
        state(runtime).histograms.push(Box(histogram), in: runtime)
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        let meta = state(runtime).histograms.install(in: runtime)
        setFunction(meta, "histogram", "__tostring") { call in
            let h = try box(call).histogram
            call.stack.push("histogram: \(h.count) values, p50 \(h.value(atPercentile: 50)), p99 \(h.value(atPercentile: 99)), max \(h.max)")
            return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "histogram", "record") { call in
            let b = try box(call)
            let v = try value(call, 2, "a value")
            let times = call.stack.isNoneOrNil(3) ? 1 : try value(call, 3, "a count")
            guard times >= 1 else { throw call.badArgument(3, "a count of at least 1 expected") }
            try b.histogram.record(v, times: times)
            return 0
        }
        setFunction(methods, "histogram", "record_corrected") { call in
            let b = try box(call)
            let v = try value(call, 2, "a value")
            let interval = try value(call, 3, "an expected interval")
            try b.histogram.recordCorrected(v, expectedInterval: interval)
            return 0
        }
        setFunction(methods, "histogram", "percentile") { call in
            let h = try box(call).histogram
            guard let p = call.stack.number(2), p >= 0, p <= 100 else { throw call.badArgument(2, "a percentile from 0 to 100 expected") }
            call.stack.push(integer: h.value(atPercentile: p))
            return 1
        }
        setFunction(methods, "histogram", "merge") { call in
            let b = try box(call)
            let other = try box(call, 2).histogram
            try b.histogram.merge(other)
            call.stack.pushValue(1)
            return 1
        }
        setFunction(methods, "histogram", "reset") { call in
            try box(call).histogram.reset()
            return 0
        }
        setFunction(methods, "histogram", "distribution") { call in
            let h = try box(call).histogram
            let ticks = call.stack.isNoneOrNil(2) ? 5 : Int(try value(call, 2, "ticks per half distance"))
            guard (1...1000).contains(ticks) else { throw call.badArgument(2, "ticks per half distance from 1 to 1000 expected") }
            let steps = h.percentileDistribution(ticksPerHalfDistance: ticks)
            call.stack.newTable(narr: Int32(min(steps.count, 1 << 20)))
            for (i, step) in steps.enumerated() {
                call.stack.newTable(nrec: 3)
                call.stack.push(integer: step.value)
                call.stack.rawSet(-2, "value")
                call.stack.push(number: step.percentile)
                call.stack.rawSet(-2, "percentile")
                call.stack.push(integer: step.totalCount)
                call.stack.rawSet(-2, "count")
                call.stack.rawSetIndex(-2, Int64(i + 1))
            }
            return 1
        }
        for (field, read) in [("count", { (h: LatencyHistogram) in h.count }), ("min", { $0.min }), ("max", { $0.max })] {
            setFunction(methods, "histogram", field) { call in
                call.stack.push(integer: read(try box(call).histogram))
                return 1
            }
        }
        for (field, read) in [("mean", { (h: LatencyHistogram) in h.mean }), ("stddev", { $0.standardDeviation })] {
            setFunction(methods, "histogram", field) { call in
                call.stack.push(number: read(try box(call).histogram))
                return 1
            }
        }
        stack.rawSet(meta, "__index")
        stack.pop()

        setFunction(pekit, "pekit", "histogram") { call in
            let fields = try LuaFields.read(call, argument: 1, known: ["lowest", "highest", "digits"])
            let lowest = try fields?.number("lowest", in: 1...4.6e18, expected: "a number of at least 1") ?? 1
            let highest = try fields?.number("highest", in: 2...4.6e18, expected: "a number of at least 2") ?? 3_600_000_000
            let digits = try fields?.integer("digits", in: 1...5) ?? 3
            let h = try LatencyHistogram(lowest: Int64(lowest), highest: Int64(highest), digits: digits)
            let s = state(call.runtime)
            if s.bytes + h.footprint > limit {
                pekit_gc_collect(call.L)
                guard s.bytes + h.footprint <= limit else {
                    throw LuaArgumentError("the live histograms hold \(s.bytes >> 20) MB of counts and this one needs \(h.footprint >> 10) KB more; the limit is \(limit >> 20) MB (let unused ones go, or :reset() one)")
                }
            }
            s.histograms.push(Box(h), in: call.runtime)
            return 1
        }
    }
}
