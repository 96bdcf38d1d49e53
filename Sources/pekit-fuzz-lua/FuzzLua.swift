// libFuzzer target for the Lua value conversion (scripts/fuzz lua SECONDS): each input is turned
// by a small generator into a Lua value (strings of any bytes, integers at the limits, NaN and
// infinities, booleans, pekit.null, arrays, maps with odd keys, ordered tables, sets, empty
// arrays, cycles, deep nesting, tables whose metamethods error or yield) and pushed through
// every path that converts Lua values: JSON, the query flattener under several policies, the
// query parser on the result, requests and inspect, on the main thread and again inside a
// coroutine. One input in eight is instead a run of request tables as a load script's function
// returns them, read the quick way and the general (LoadReadingDifferential). A Lua error is an
// expected outcome; a crash, a sanitizer report, a broken round trip, a coroutine that gets
// another answer or a table the two readings differ on is a finding. Built only with
// -DPEKIT_FUZZ (scripts/fuzz); a plain build says so.
import Foundation
import PekitCore
import PekitLua

#if PEKIT_FUZZ
/// Writes a Lua expression for the value the input bytes describe.
struct ValueGenerator {
    var bytes: [UInt8]
    var index = 0
    var budget = 400  // values per input, so one input stays small

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func string() -> String {
        var out = "\""
        for _ in 0..<Int(next() % 24) { out += "\\" + String(next()) }
        return out + "\""
    }

    /// `count` items made by `item`, joined by ", ".
    mutating func list(_ count: UInt8, _ item: (inout ValueGenerator) -> String) -> String {
        var items: [String] = []
        for _ in 0..<Int(count) { items.append(item(&self)) }
        return items.joined(separator: ", ")
    }

    mutating func value(depth: Int) -> String {
        budget -= 1
        if budget <= 0 || depth > 80 { return "1" }
        switch next() % 14 {
        case 0, 1: return string()
        case 2:
            var raw: UInt64 = 0
            for _ in 0..<8 { raw = (raw << 8) | UInt64(next()) }
            return "math.tointeger(\(Int64(bitPattern: raw)))"
        case 3: return ["0.5", "-0.0", "(1/0)", "(-1/0)", "(0/0)", "1e308", "math.maxinteger", "math.mininteger", "2^53"][Int(next() % 9)]
        case 4: return next() & 1 == 0 ? "true" : "false"
        case 5: return "pekit.null"
        case 6: return "{" + list(next() % 5) { $0.value(depth: depth + 1) } + "}"
        case 7:
            return "{" + list(next() % 5) { g in
                let keys = [g.string(), "0", "-1", "1.5", "math.maxinteger", "3", "true"]
                return "[\(keys[Int(g.next() % 7)])] = \(g.value(depth: depth + 1))"
            } + "}"
        case 8: return "pekit.ordered{" + list(next() % 4) { g in "{\(g.string()), \(g.value(depth: depth + 1))}" } + "}"
        case 9: return "pekit.set{" + list(next() % 4) { $0.value(depth: depth + 1) } + "}"
        case 10: return "pekit.array{}"
        case 11: return "(function() local t = { x = \(value(depth: depth + 1)) } t.self = t return t end)()"
        case 13: return "setmetatable({" + list(next() % 4) { $0.value(depth: depth + 1) } + "}, HOSTILE)"
        default:
            let n = Int(next()) + 1
            return String(repeating: "{", count: n) + value(depth: depth + 1) + String(repeating: "}", count: n)
        }
    }
}

/// Writes a Lua array of request tables as a load script's function returns them: runs of one
/// shape (URL, method, field names, `follow`) with values that change, the shapes and values
/// mostly what scripts send and now and then what no build takes (`LoadReadingDifferential`).
struct TableRunGenerator {
    var values: ValueGenerator

    static let urls = ["http://127.0.0.1:8080/ok", "http://h/p?q=1#f", "http://u:p@h/", "http://[::1]/x y", "HTTP://H:80/a/../b", "nope", "http://h:99999/"]
    static let methods = ["GET", "post", "HEAD", "PUT", "BAD METHOD", ""]
    static let names = ["X-Request", "x-request", "X-Id", "Host", "User-Agent", "Accept", "Authorization", "Cookie", "Expect",
                        "Content-Type", "Content-Length", "Transfer-Encoding", "bad name", ""]

    /// One of `pool`, or (one time in four) bytes of the input's own.
    mutating func pick(_ pool: [String]) -> String {
        let n = Int(values.next())
        return n % 4 == 3 ? values.string() : "\"" + pool[n % pool.count].unicodeScalars.map { "\\\($0.value)" }.joined() + "\""
    }

    mutating func source() -> String {
        var tables: [String] = []
        for _ in 0..<(1 + Int(values.next() % 4)) {
            let url = pick(Self.urls)
            let method: String? = values.next() % 3 == 0 ? nil : pick(Self.methods)
            let follow = ["", "follow = true, ", "follow = false, "][Int(values.next() % 3)]
            let names = (0..<Int(values.next() % 4)).map { _ in pick(Self.names) }
            let other = values.next() % 10 == 0 ? "timeout = 5, " : ""
            let withHeaders = !names.isEmpty || values.next() & 1 == 0
            for _ in 0..<(1 + Int(values.next() % 4)) {
                let fields = names.map { name -> String in
                    let value: String
                    switch values.next() % 8 {
                    case 0: value = "false"
                    case 1: value = "7"
                    case 2, 3: value = values.string()
                    default: value = "tostring(\(values.next()))"
                    }
                    return "[\(name)] = \(value)"
                }
                let headers = withHeaders ? "headers = { " + fields.joined(separator: ", ") + " }, " : ""
                tables.append("{ url = \(url), " + (method.map { "method = \($0), " } ?? "") + follow + other + headers + "}")
            }
        }
        return "pekit_fuzz_tables = { " + tables.joined(separator: ",\n") + " }"
    }
}

/// Metamethods that must never run when pekit reads a table: each errors or yields.
let hostileSetup = String(decoding: PackageResources.hostile_setup_lua, as: UTF8.self) + "\npekit_fuzz_servers = { " + QueryServer.names.map { "\"\($0)\"" }.joined(separator: ", ") + " }\n"

/// (Sources/pekit-fuzz-lua/Lua/probe.lua, compiled in.)
let probe = String(decoding: PackageResources.probe_lua, as: UTF8.self)

private let runtime: LuaRuntime = {
    var options = LuaRuntime.Options()
    if let plugins = ProcessInfo.processInfo.environment["PEKIT_FUZZ_PLUGINS"] { options.extraPluginDirectories = [plugins] }
    do {
        let runtime = try LuaRuntime(options: options)
        try runtime.runChunk(Array(hostileSetup.utf8), name: "=fuzz-setup")
        return runtime
    } catch {
        FileHandle.standardError.write(Data("fuzz set-up: \(error)\n".utf8))
        exit(1)
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func pekitFuzzLua(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // One input in eight is a load script's run of tables, read the quick way and the general.
    if bytes.first.map({ $0 % 8 == 3 }) == true {
        var tables = TableRunGenerator(values: ValueGenerator(bytes: Array(bytes.dropFirst())))
        let source = tables.source()
        do { try runtime.runChunk(Array(source.utf8), name: "=fuzz-tables") } catch {
            FileHandle.standardError.write(Data("finding: the generated tables do not load: \(error)\n\(source)\n".utf8))
            abort()
        }
        let tally = LoadReadingDifferential.run(runtime, global: "pekit_fuzz_tables")
        if !tally.differences.isEmpty {
            FileHandle.standardError.write(Data("finding: the quick reading of a load script's tables differs\n\(tally.differences.joined(separator: "\n"))\n\(source)\n".utf8))
            abort()
        }
        try? runtime.runChunk(Array("pekit_fuzz_tables = nil collectgarbage()".utf8))
        return 0
    }
    var generator = ValueGenerator(bytes: bytes)
    var generatorCopy = generator
    let chunk = "return (function(...) \(probe) end)(\(generator.value(depth: 0)))"
    do {
        try runtime.runChunk(Array(chunk.utf8), name: "=fuzz")
    } catch {
        let message = "\(error)"
        // Lua errors the probe does not catch are its own assertions: a finding.
        if message.contains("round trip") || message.contains("assertion failed") || message.contains("a metamethod ran")
            || message.contains("a coroutine differs") {
            FileHandle.standardError.write(Data("finding: \(message)\nvalue: \(generatorCopy.value(depth: 0))\n".utf8))
            abort()
        }
    }
    try? runtime.runChunk(Array("collectgarbage()".utf8))
    return 0
}
#else
@main
enum FuzzLuaUsage {
    static func main() {
        FileHandle.standardError.write(Data("pekit-fuzz-lua is built by scripts/fuzz (swift build --sanitize=fuzzer -Xswiftc -DPEKIT_FUZZ)\n".utf8))
        exit(2)
    }
}
#endif
