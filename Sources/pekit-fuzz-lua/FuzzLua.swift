// libFuzzer target for the Lua value conversion (scripts/fuzz lua SECONDS): each input is turned
// by a small generator into a Lua value (strings of any bytes, integers at the limits, NaN and
// infinities, booleans, pekit.null, arrays, maps with odd keys, ordered tables, sets, empty
// arrays, cycles, deep nesting, tables whose metamethods error or yield) and pushed through
// every path that converts Lua values: JSON, the query flattener under several policies, the
// query parser on the result, requests and inspect, on the main thread and again inside a
// coroutine. A Lua error is an expected outcome; a crash, a sanitizer report, a broken round
// trip or a coroutine that gets another answer is a finding. Built only with -DPEKIT_FUZZ (scripts/fuzz); a plain build says so.
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

/// Metamethods that must never run when pekit reads a table: each errors or yields.
let hostileSetup = #"""
HOSTILE = {}
for _, e in ipairs { "__index", "__newindex", "__pairs", "__len", "__eq", "__lt", "__le", "__concat", "__call" } do
  -- Longer than any string the generator makes (23 bytes), so no value can look like it.
  HOSTILE[e] = function() error("pekit-fuzz: hostile metamethod " .. e .. " ran") end
end
HOSTILE.__tostring = function() coroutine.yield() end
"""# + "\npekit_fuzz_servers = { " + QueryServer.names.map { "\"\($0)\"" }.joined(separator: ", ") + " }\n"

let probe = #"""
local v = ...
local function encode_all(v)
  local out = {}
  for _, policy in ipairs { "rfc3986", "qs", "php", "rack", "afnetworking", "jquery" } do
    out[#out + 1] = tostring(select(2, pcall(pekit.query.encode, v, policy)))
  end
  out[#out + 1] = tostring(select(2, pcall(pekit.json.encode, v)))
  out[#out + 1] = pekit.inspect(v)
  return table.concat(out, "\n")
end
local main = encode_all(v)
assert(not main:find("pekit-fuzz: hostile metamethod", 1, true), "a metamethod ran: " .. main)
local inside = coroutine.wrap(encode_all)(v)
assert(inside == main, "a coroutine differs:\n" .. main .. "\n--\n" .. inside)
local ok, j = pcall(pekit.json.encode, v)
if ok then
  local w = pekit.json.decode(j)
  assert(pekit.json.encode(w) == j, "JSON round trip changed the value")
end
for _, policy in ipairs { "rfc3986", "qs", "php", "rack", "afnetworking", "jquery" } do
  local ok, q = pcall(pekit.query.encode, v, policy)
  if ok then
    assert(type(q) == "string")
    for _, server in ipairs(pekit_fuzz_servers) do
      pcall(pekit.query.decode, q, { server = server })
      pcall(pekit.query.check, v, policy, server)
    end
  end
end
pcall(pekit.query.pairs, v)
pcall(pekit.request, { url = "http://h/", params = v, policy = "qs" })
pcall(pekit.request, { url = "http://h/", json = v, method = "POST" })
assert(type(pekit.inspect(v)) == "string")
"""#

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
    var generator = ValueGenerator(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
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
