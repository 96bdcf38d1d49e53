import XCTest
@testable import PekitLua
@testable import PekitTools

/// Decoded data is Lua data: what a script changes is what every consumer sees.
final class OrderedTableTests: XCTestCase {
    /// Each consumer of a value, as one line: query string, JSON, request URL, inspect, pairs.
    static let consumers = #"""
    local function consumers(t)
      local keys = {}
      for k, v in pairs(t) do keys[#keys + 1] = tostring(k) .. "=" .. (type(v) == "table" and "{}" or tostring(v)) end
      local n = 0
      for _ in next, t do n = n + 1 end
      return table.concat({ pekit.query.encode(t, "qs"), pekit.json.encode(t),
        pekit.request{ url = "http://h/", params = t, policy = "qs" }.target, pekit.inspect(t):gsub("%s+", " "),
        table.concat(keys, ","), "next:" .. n }, " | ")
    end
    """#

    func eval(_ lua: LuaREPL, _ code: String) -> String {
        lua.eval("(function() \(Self.consumers)\n \(code) end)()")
    }

    func testEditsToOrderedTablesReachEveryConsumer() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let cases: [(String, String)] = [
            ("local o = pekit.json.decode('{\"x\":1,\"a\":2}') o.x = 10 return consumers(o)",
             #"x=10&a=2 | {"x":10,"a":2} | /?x=10&a=2 | pekit.ordered{ {"x", 10}, {"a", 2} } | x=10,a=2 | next:2"#),
            ("local o = pekit.json.decode('{\"x\":1,\"a\":2}') o.y = 3 return consumers(o)",
             #"x=1&a=2&y=3 | {"x":1,"a":2,"y":3} | /?x=1&a=2&y=3 | pekit.ordered{ {"x", 1}, {"a", 2}, {"y", 3} } | x=1,a=2,y=3 | next:3"#),
            ("local o = pekit.json.decode('{\"x\":1,\"a\":2}') o.x = nil return consumers(o)",
             #"a=2 | {"a":2} | /?a=2 | pekit.ordered{ {"a", 2} } | a=2 | next:1"#),
            ("local o = pekit.json.decode('{\"x\":1,\"a\":2}') o.x = nil o.x = 5 return consumers(o)",
             #"a=2&x=5 | {"a":2,"x":5} | /?a=2&x=5 | pekit.ordered{ {"a", 2}, {"x", 5} } | a=2,x=5 | next:2"#),
            ("local o = pekit.ordered{ {\"b\", 1}, {\"a\", 2} } o.b = nil o.c = 3 o.b = 4 o.a = 0 return consumers(o)",
             #"a=0&c=3&b=4 | {"a":0,"c":3,"b":4} | /?a=0&c=3&b=4 | pekit.ordered{ {"a", 0}, {"c", 3}, {"b", 4} } | a=0,c=3,b=4 | next:3"#),
            ("local o = pekit.query.decode('b=1&a=2', { ordered = true }) o.b = 'x' o.z = 'y' return consumers(o)",
             #"b=x&a=2&z=y | {"b":"x","a":"2","z":"y"} | /?b=x&a=2&z=y | pekit.ordered{ {"b", "x"}, {"a", "2"}, {"z", "y"} } | b=x,a=2,z=y | next:3"#),
            ("local o = pekit.json.decode('{\"list\":[3,1,2]}') table.insert(o.list, 0) table.remove(o.list, 1) table.sort(o.list) return consumers(o)",
             #"list%5B0%5D=0&list%5B1%5D=1&list%5B2%5D=2 | {"list":[0,1,2]} | /?list%5B0%5D=0&list%5B1%5D=1&list%5B2%5D=2 | pekit.ordered{ {"list", pekit.array{ 0, 1, 2 }} } | list={} | next:1"#),
            ("local o = pekit.json.decode('{\"e\":[]}') o.e[1] = 'x' return consumers(o)",
             #"e%5B0%5D=x | {"e":["x"]} | /?e%5B0%5D=x | pekit.ordered{ {"e", pekit.array{ "x" }} } | e={} | next:1"#),
            ("local s = pekit.set{ 'a' } s[#s + 1] = 'b' return consumers({ s = s })",
             #"s=a&s=b | {"s":["a","b"]} | /?s=a&s=b | { s = pekit.set{ "a", "b" } } | s={} | next:1"#),
            ("local cfg = pekit.json.decode('{\"params\":{\"page\":1,\"q\":\"x\"}}') cfg.params.page = 2 return consumers(cfg.params)",
             #"page=2&q=x | {"page":2,"q":"x"} | /?page=2&q=x | pekit.ordered{ {"page", 2}, {"q", "x"} } | page=2,q=x | next:2"#),
            ("local o = pekit.ordered{ {'a', 1} } rawset(o, 'z', 2) rawset(o, 'm', 3) return consumers(o)",
             #"a=1&m=3&z=2 | {"a":1,"m":3,"z":2} | /?a=1&m=3&z=2 | pekit.ordered{ {"a", 1}, {"m", 3}, {"z", 2} } | a=1,m=3,z=2 | next:3"#),
        ]
        for (code, expected) in cases {
            XCTAssertEqual(eval(lua, code), "\"\(expected.replacingOccurrences(of: "\"", with: "\\\""))\"", code)
        }
    }

    func testPolicyTablesAndResponsesAreEditable() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"(function() local p = pekit.policy.get("form") p.space = "%20" return pekit.encode("a b", p) end)()"#), #""a%20b""#)
        XCTAssertEqual(lua.eval(#"(function() local p = pekit.policy.get("qs") p.arrays = "brackets" return pekit.query.encode({ a = { 1 } }, p) end)()"#), #""a%5B%5D=1""#)
        XCTAssertEqual(lua.eval(#"pekit.ordered{ {"a", 1} }.a"#), "1")
        // A repeated key is an error naming it (it used to keep the last value silently).
        XCTAssertEqual(lua.eval(#"(function() local t = pekit.ordered{ {"a", 1}, {"a", 2} } end)()"#),
                       #"error: stdin:1: pekit.ordered: entries 1 and 2 both have the key "a"; a table holds a key once (a list of {key, value} pairs, as params or headers take, may repeat one)"#)
        XCTAssertEqual(lua.eval(#"(function() local o = pekit.ordered() o[true] = 1 end)()"#),
                       "error: stdin:1: pekit.ordered: a key must be a string or an integer, not boolean")
    }

    /// Many keys added and removed: the order list is compacted, not grown without bound.
    func testChurnKeepsTheOrderSmall() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"(function() local o = pekit.ordered() for i = 1, 100000 do o["k" .. i] = i; o["k" .. (i - 1)] = nil end return pekit.json.encode(o) end)()"#),
                       #""{\"k100000\":100000}""#)
    }

    /// pretty = true writes what JSON.stringify(v, null, 2) writes (checked against node for this
    /// document), in the order the script sees; an unknown option is an error.
    func testPrettyJSON() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"pekit.json.encode(pekit.json.decode([==[{"b":[1,{"c":null},[]],"a":{},"s":"x\"y","n":1.5}]==]), {pretty = true})"#),
                       #""{\n  \"b\": [\n    1,\n    {\n      \"c\": null\n    },\n    []\n  ],\n  \"a\": {},\n  \"s\": \"x\\\"y\",\n  \"n\": 1.5\n}""#)
        XCTAssertEqual(lua.eval(#"pekit.json.encode({}, {prety = true})"#),
                       #"error: stdin:1: pekit.json.encode: bad argument #2 (unknown field "prety" (did you mean "pretty"?); known: pretty)"#)
        // next() walks in the remembered order, as pairs does (issue 34).
        XCTAssertEqual(lua.eval(#"(function() local t = pekit.ordered{ {"z", 1}, {"a", 2}, {"m", 3} } t.a = nil t.q = 4 local out = {} for k, v in next, t do out[#out + 1] = k .. v end return table.concat(out, ",") end)()"#), #""z1,m3,q4""#)
        XCTAssertEqual(lua.eval(##"(function() local j = pekit.json.decode('{"b":1,"a":2}') return (next(j)), next({}) == nil, select("#", next({x = 1})) end)()"##), "\"b\"\ttrue\t2")
        XCTAssertEqual(lua.eval(#"pekit.ordered{ { "a", "1" }, { "b", 2 }, { "a", "2" } }"#),
                       #"error: pekit.ordered: entries 1 and 3 both have the key "a"; a table holds a key once (a list of {key, value} pairs, as params or headers take, may repeat one)"#)
        XCTAssertEqual(lua.eval(#"pekit.json.decode("[]", { dups = 1 })"#), #"error: stdin:1: pekit.json.decode: bad argument #2 (unknown field "dups"; known: duplicates)"#)
        // A member given twice: the last value at the first one's place (JavaScript's and
        // Python's reading), or an error naming it.
        XCTAssertEqual(lua.eval(#"pekit.inspect(pekit.json.decode([==[{"a":1,"b":{"x":1,"x":2},"a":3}]==]))"#), #""pekit.ordered{ {\"a\", 3}, {\"b\", pekit.ordered{ {\"x\", 2} }} }""#)
        XCTAssertEqual(lua.eval(#"pekit.json.decode([==[{"a":1,"b":2,"a":3}]==], { duplicates = "error" })"#),
                       #"error: stdin:1: pekit.json.decode: invalid JSON at byte 14: the member "a" appears twice in one object"#)
    }
}
