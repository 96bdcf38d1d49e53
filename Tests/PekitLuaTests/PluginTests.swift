import Foundation
import XCTest
import PekitCore
@testable import PekitLua
@testable import PekitTools

final class PluginTests: XCTestCase {
    let sample = #"a b+c/?&=~*:[]é"#

    func testShippedPoliciesEncodeExactly() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let expected = [
            "rfc3986": "a%20b%2Bc%2F%3F%26%3D~%2A%3A%5B%5D%C3%A9",
            "afnetworking": "a%20b%2Bc/?%26%3D~%2A%3A%5B%5D%C3%A9",
            "foundation-query": "a%20b+c/?%26%3D~*:%5B%5D%C3%A9",
            "form": "a+b%2Bc%2F%3F%26%3D%7E*%3A%5B%5D%C3%A9",
            "oauth1": "a%20b%2Bc%2F%3F%26%3D~%2A%3A%5B%5D%C3%A9",
            "aws-sigv4": "a%20b%2Bc%2F%3F%26%3D~%2A%3A%5B%5D%C3%A9",
        ]
        for (name, output) in expected {
            XCTAssertEqual(lua.eval(#"pekit.encode("\#(sample)", "\#(name)")"#), "\"\(output)\"", name)
        }
        XCTAssertEqual(lua.eval(#"pekit.encode("\#(sample)")"#), "\"\(expected["rfc3986"]!)\"", "rfc3986 is the default")
        // foundation-query is what URLComponents.queryItems writes.
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "k", value: sample)]
        XCTAssertEqual(components.percentEncodedQuery, "k=" + expected["foundation-query"]!)
    }

    // One source per built-in policy (issue 70): each shipped plugins/NAME.lua is the text
    // `pekit plugins export NAME` writes from the Swift definition (scripts/policy-plugins), it
    // reads back, as a plugin, to exactly that policy, and while unchanged it is the built-in
    // policy itself: no Lua state is started for it.
    func testPluginsAgreeWithBuiltins() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        for (name, builtin) in Policy.builtins {
            let file = try XCTUnwrap(runtime.plugins.find(name), "\(name) is shipped as a plugin file")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            XCTAssertEqual(text, builtinPolicyPluginText(builtin), "\(file) is not what scripts/policy-plugins writes: run it")
            XCTAssertEqual(try runtime.policies.entry(name).origin, "built-in", "\(name): the unchanged file costs no Lua state")
            // Read as a plugin (under another name), the file is the built-in policy.
            let copy = "copy-of-" + name
            let defined = lua.eval("local t = assert(load(\(LuaLiteral.quoted(text)), \"=\(name).lua\"))(); t.name = \"\(copy)\"; return pekit.policy.define(t) ~= nil")
            XCTAssertEqual(defined, "true", name)
            XCTAssertEqual(describe(try runtime.policy(named: copy)), describe(builtin).replacingOccurrences(of: "\(name)|", with: "\(copy)|", options: .anchored), name)
        }
    }

    /// An edited copy of a built-in policy's file is a plugin like any other: read, and what it says wins.
    func testAnEditedBuiltinFileIsAPlugin() throws {
        let shipped = try String(contentsOfFile: PluginTests.repositoryPlugins + "/php.lua", encoding: .utf8)
        let directory = try pluginDirectory(["php": shipped.replacingOccurrences(of: "  space = \"+\",\n", with: "")])
        let runtime = try makeRuntime(plugins: [directory])
        XCTAssertEqual(try runtime.policies.entry("php").origin, directory + "/php.lua")
        XCTAssertEqual(LuaREPL(runtime: runtime).eval(#"pekit.encode("a b", "php")"#), #""a%20b""#)
        XCTAssertEqual(LuaREPL(runtime: try makeRuntime()).eval(#"pekit.encode("a b", "php")"#), #""a+b""#)
    }

    static let repositoryPlugins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("plugins").path

    func describe(_ p: Policy) -> String {
        "\(p.name)|\(p.description)|\(p.allowed)|\(p.space)|\(p.hexCase)|\(p.order)|\(p.arrays)|\(p.objects)|\(p.null)|\(p.booleans)|\(p.encodeKeys)|\(p.encodeValues)|\(p.separator)|\(p.assign)|\(p.empty)|\(p.prefix)|\(p.numbers.name)|\(p.paramsIn ?? "-")|\(p.methodsInQuery?.sorted() ?? [])|\(String(describing: p.acceptLanguage))|\(p.requestHeaders.map { "\($0.name)=\($0.value)" })"
    }

    func testAPolicyFileChangesOutputWithoutRebuilding() throws {
        let directory = try pluginDirectory(["mine": #"return { kind = "policy", allowed = "unreserved" }"#])
        let runtime = try makeRuntime(plugins: [directory])
        let lua = LuaREPL(runtime: runtime)
        XCTAssertEqual(lua.eval(#"pekit.encode("[a]", "mine")"#), #""%5Ba%5D""#)
        try #"return { kind = "policy", extends = "afnetworking", allowed = pekit.charset.afnetworking + "[]" }"#
            .write(toFile: directory + "/mine.lua", atomically: true, encoding: .utf8)
        XCTAssertEqual(lua.eval(#"pekit.encode("[a]", "mine")"#), #""%5Ba%5D""#, "cached until reloaded")
        XCTAssertEqual(lua.eval(":reload"), "plugins will be read again on next use")
        XCTAssertEqual(lua.eval(#"pekit.encode("[a] ?", "mine")"#), #""[a]%20?""#)
        XCTAssertEqual(lua.eval(#"pekit.policy.get("mine").null"#), #""key""#, "extends keeps the base's fields")
    }

    func testBrokenPluginsFailWithTheirNameAndTheProcessGoesOn() throws {
        let directory = try pluginDirectory([
            "spin": "while true do end",
            "spincatch": "while true do pcall(function() while true do end end) end",
            "hog": #"local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end"#,
            "undef": #"return { kind = "policy", allowed = nothing_here }"#,
            "field": #"return { kind = "policy", arrayz = "brackets" }"#,
            "type": #"return { kind = "policy", space = 20 }"#,
            "syntax": #"return { kind = "policy" space = 1 }"#,
            "nottable": "return 42",
            "nokind": "return {}",
            "named": #"return { kind = "policy", name = "other" }"#,
            "filter": #"return { kind = "cookie-filter" }"#,
            "selfish": #"return { kind = "policy", extends = "selfish" }"#,
            "escape": #"return { kind = "policy", description = tostring(io) }"#,
            "filtertypo": #"return { kind = "cookie-filter", mathc = function() return true end }"#,
            "filtertype": #"return { kind = "cookie-filter", match = "yes" }"#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: 5_000_000, memory: 8 << 20))
        func failure(_ name: String) -> String {
            lua.eval(#"select(2, pcall(pekit.encode, "x", "\#(name)"))"#)
                .replacingOccurrences(of: directory, with: "DIR")
        }
        XCTAssertEqual(failure("spin"), #""pekit.encode: plugin \"spin\" (DIR/spin.lua): instruction budget exceeded (an endless loop?)""#)
        XCTAssertEqual(failure("spincatch"), #""pekit.encode: plugin \"spincatch\" (DIR/spincatch.lua): instruction budget exceeded (an endless loop?)""#)
        XCTAssertEqual(failure("hog"), #""pekit.encode: plugin \"hog\" (DIR/hog.lua): not enough memory (the limit is 8 MB)""#)
        XCTAssertEqual(failure("undef"), #""pekit.encode: plugin \"undef\" (DIR/undef.lua): undef.lua:1: undefined global 'nothing_here'""#)
        XCTAssertEqual(failure("field"), #""pekit.encode: plugin \"field\" (DIR/field.lua): unknown field \"arrayz\" (a policy has: name, kind, description, extends, allowed, space, lower, order, arrays, objects, null, booleans, numbers, encode_keys, encode_values, separator, assign, empty, prefix, headers, accept_language, params_in, methods_in_query)""#)
        XCTAssertEqual(failure("type"), #""pekit.encode: plugin \"type\" (DIR/type.lua): field \"space\" must be \"%20\", \"percent\", \"+\" or \"plus\", not a number""#)
        XCTAssertEqual(failure("syntax"), #""pekit.encode: plugin \"syntax\" (DIR/syntax.lua): syntax.lua:1: '}' expected near 'space'""#)
        XCTAssertEqual(failure("nottable"), #""pekit.encode: plugin \"nottable\" (DIR/nottable.lua): a plugin must return a table, not a number""#)
        XCTAssertEqual(failure("nokind"), #""pekit.encode: plugin \"nokind\" (DIR/nokind.lua): field \"kind\" must be \"policy\" or \"cookie-filter\", not missing""#)
        XCTAssertEqual(failure("named"), #""pekit.encode: plugin \"named\" (DIR/named.lua): field \"name\" is \"other\"; it must match the file name \"named\"""#)
        XCTAssertEqual(failure("filter"), #""pekit.encode: plugin \"filter\" (DIR/filter.lua) is a cookie-filter, not a policy""#)
        XCTAssertEqual(failure("selfish"), #""pekit.encode: policy \"selfish\": extends itself (selfish -> selfish)""#)
        XCTAssertEqual(failure("escape"), #""pekit.encode: plugin \"escape\" (DIR/escape.lua): escape.lua:1: undefined global 'io'""#)
        // Checked when loaded, not at first use: a misspelt function would otherwise be ignored.
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.plugins.load, "filtertypo"))"#).replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.plugins.load: plugin \"filtertypo\" (DIR/filtertypo.lua): unknown field \"mathc\" (a cookie-filter has: name, kind, description, new, host, accept, match, rewrite)""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.plugins.load, "filtertype"))"#).replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.plugins.load: plugin \"filtertype\" (DIR/filtertype.lua): field \"match\" must be a function, not a string""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.plugins.load, "field"))"#).replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.plugins.load: plugin \"field\" (DIR/field.lua): unknown field \"arrayz\" (a policy has: name, kind, description, extends, allowed, space, lower, order, arrays, objects, null, booleans, numbers, encode_keys, encode_values, separator, assign, empty, prefix, headers, accept_language, params_in, methods_in_query)""#)
        XCTAssertEqual(lua.eval(#"(function() for _, p in ipairs(pekit.plugins.list()) do if p.name == "filtertypo" then return p.kind .. " " .. tostring(p.error ~= nil) end end end)()"#),
                       #""? true""#, "listed as broken, with its error")
        XCTAssertEqual(failure("../etc/passwd"), #""pekit.encode: invalid plugin name \"../etc/passwd\" (letters, digits, '-', '_' and '.' only)""#)
        // The runtime is still usable, with its memory cap relaxed again.
        XCTAssertEqual(lua.eval(#"#string.rep("x", 20 * 1024 * 1024)"#), "20971520")
        XCTAssertEqual(lua.eval(#"pekit.encode("a b", pekit.charset.unreserved)"#), #""a%20b""#)
    }

    func testSandboxAllowList() throws {
        let directory = try pluginDirectory(["probe": """
            local seen = {}
            for _, name in ipairs({"io", "os", "load", "loadfile", "dofile", "require", "debug", "collectgarbage", "package"}) do
              seen[#seen + 1] = name .. "=" .. tostring(rawget(_G, name) ~= nil)
            end
            seen[#seen + 1] = "os.execute=" .. tostring(os.execute ~= nil)
            seen[#seen + 1] = "string.dump=" .. tostring(string.dump ~= nil)
            seen[#seen + 1] = "strmeta=" .. tostring(getmetatable("") ~= nil)
            return { kind = "policy", description = table.concat(seen, " ") }
            """])
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory]))
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("probe").description"#),
                       #""io=false os=true load=false loadfile=false dofile=false require=false debug=false collectgarbage=false package=false os.execute=false string.dump=false strmeta=false""#)
        XCTAssertEqual(lua.eval(#"pekit.policy.get("probe").name"#), #""probe""#)
    }

    func testPolicyModule() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"pekit.policy.define{ name = "brackets", extends = "rfc3986", allowed = "[]" }"#), #""brackets""#)
        XCTAssertEqual(lua.eval(#"pekit.encode("[a b]", "brackets")"#), #""[a%20b]""#)
        XCTAssertEqual(lua.eval(#"pekit.policy.define{ extends = "rfc3986" }"#), #"error: stdin:1: pekit.policy.define: a policy needs a field "name" (a string)"#)
        XCTAssertEqual(lua.eval(#"pekit.policy.define{ name = "x", order = 5 }"#),
                       #"error: stdin:1: pekit.policy.define: policy "x": field "order" must be "ascending", "bytes", "pairs", "given" or a function(a, b), not a number"#)
        let list = lua.eval(#"(function() local names = {} for _, p in ipairs(pekit.policy.list()) do names[#names + 1] = p.name end return table.concat(names, ",") end)()"#)
        XCTAssertEqual(list, #""afnetworking,alamofire,alamofire-form,aws-sigv4,brackets,form,foundation-query,go,jquery,jquery1,node-querystring,oauth1,php,python-requests,qs,qs-brackets,qs-comma,qs-comma-values,qs-repeat,rack,rfc3986""#)
        XCTAssertEqual(lua.eval(#"pekit.policy.get("afnetworking").allowed"#),
                       #"charset("-./0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")"#)
        XCTAssertEqual(lua.eval(#"pekit.encode("a b*", {policy = "form", space = "%20", lower = true, allowed = pekit.charset.form - "*"})"#), #""a%20b%2a""#)
        XCTAssertEqual(lua.eval(#"pekit.encode("a%20b c", {keep_escapes = true})"#), #""a%20b%20c""#)
        XCTAssertEqual(lua.eval(#"pekit.encode("a b", {spaces = "+"})"#), #"error: stdin:1: pekit.encode: bad argument #2 (unknown field "spaces" (a policy has: name, kind, description, extends, allowed, space, lower, order, arrays, objects, null, booleans, numbers, encode_keys, encode_values, separator, assign, empty, prefix, headers, accept_language, params_in, methods_in_query))"#)
        XCTAssertEqual(lua.eval(#"pekit.decode("a+b", "form")"#), #""a b""#)
    }

    func testCharsets() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"tostring(pekit.charset("[]") + "a")"#), #""charset(\"[]a\")""#)
        XCTAssertEqual(lua.eval(#"pekit.charset.letters - pekit.charset("abc") == pekit.charset("ABCDEFGHIJKLMNOPQRSTUVWXYZdefghijklmnopqrstuvwxyz")"#), "true")
        XCTAssertEqual(lua.eval(#"(~pekit.charset.alphanumerics):contains("/")"#), "true")
        XCTAssertEqual(lua.eval(#"(~pekit.charset.alphanumerics):contains("é")"#), "false")
        XCTAssertEqual(lua.eval(#"pekit.charset.unreserved:contains("a~")"#), "true")
        XCTAssertEqual(lua.eval(#"pekit.encode("汉字&ss", pekit.charset.letters)"#), #""%E6%B1%89%E5%AD%97%26ss""#)
        XCTAssertEqual(lua.eval(#"pekit.charset("\1\\")"#), #"charset("\x01\\")"#)
        XCTAssertEqual(lua.eval(#"pekit.charset("é")"#), #"error: stdin:1: pekit.charset: bad argument #1 (character "é" at position 1 is not ASCII; non-ASCII text is always UTF-8 percent-encoded)"#)
        XCTAssertEqual(lua.eval(#"pekit.charset.letters + 1"#), "error: stdin:1: charset.__add: bad argument #2 (charset or string expected, got number)")
    }

    func testPluginsListAndPath() throws {
        let directory = try pluginDirectory(["zeta": #"return { kind = "cookie-filter", description = "z" }"#, "broken": "return 1"])
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory]))
        XCTAssertEqual(lua.eval(#"pekit.plugins.path[1]"#), "\"\(directory)\"")
        let names = lua.eval(#"(function() local out = {} for _, p in ipairs(pekit.plugins.list()) do if p.file:find("\#(directory)", 1, true) then out[#out + 1] = p.name .. ":" .. p.kind .. (p.error and "!" or "") end end return table.concat(out, " ") end)()"#)
        XCTAssertEqual(names, #""broken:?! zeta:cookie-filter""#)
        // Scripts may put their own directory first.
        _ = lua.eval(#"table.insert(pekit.plugins.path, 1, "\#(repoPlugins)")"#)
        XCTAssertEqual(lua.eval(#"pekit.encode("a b", "form")"#), #""a+b""#)
    }
}

final class QueryModuleTests: XCTestCase {
    func testQueryFromLua() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let seed = #"{name = "小A", phone = {mobile = "xx", home = "xx"}, families = {"father", "mother"}, nums = pekit.set{"1", "2"}, does_not_include = "/?", space = " ", GeneralDelimitersToEncode = ":#[]@", SubDelimitersToEncode = "!$&'()*+,;="}"#
        XCTAssertEqual(lua.eval("pekit.query.encode(\(seed), 'afnetworking')"),
                       #""GeneralDelimitersToEncode=%3A%23%5B%5D%40&SubDelimitersToEncode=%21%24%26%27%28%29%2A%2B%2C%3B%3D&does_not_include=/?&families%5B%5D=father&families%5B%5D=mother&name=%E5%B0%8FA&nums=1&nums=2&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx&space=%20""#)
        XCTAssertEqual(lua.eval(#"pekit.query.encode({name = "p&p", nick_name = "p&p[]@= =!", ["father name"] = "~!@#$%^&*(){}"}, "afnetworking")"#),
                       #""father%20name=~%21%40%23%24%25%5E%26%2A%28%29%7B%7D&name=p%26p&nick_name=p%26p%5B%5D%40%3D%20%3D%21""#)
        XCTAssertEqual(lua.eval(#"pekit.query.encode(pekit.ordered{ {"b", 1}, {"a", pekit.null} }, {policy = "qs", null = "key"})"#), #""b=1&a""#)
        XCTAssertEqual(lua.eval(#"pekit.query.pairs({a = {1, 2}}, "php")"#), #"{ { "a[0]", "1" }, { "a[1]", "2" } }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.encode({a = {{b = 1}, 2}}, "jquery")"#), #""a%5B0%5D%5Bb%5D=1&a%5B%5D=2""#)
        XCTAssertEqual(lua.eval(#"pekit.query.encode({a = {1, 2}}, {arrays = function(key, i) return key .. "_" .. i end})"#), #""a_1=1&a_2=2""#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a[]=1&a[]=2&b=x+y").a[2]"#), #""2""#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a=1&a=2", "php")"#), #"pekit.ordered{ {"a", "2"} }"#)
        // Maps keep the server's order by default (pekit.ordered); ordered = false gives plain tables.
        XCTAssertEqual(lua.eval(#"pekit.query.decode("b=1&a=2")"#), #"pekit.ordered{ {"b", "1"}, {"a", "2"} }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("b=1&a=2", {ordered = true})"#), #"pekit.ordered{ {"b", "1"}, {"a", "2"} }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("b=1&a=2&c[z]=1&c[y]=2", {ordered = false})"#), #"{ a = "2", b = "1", c = { y = "2", z = "1" } }"#)
        XCTAssertEqual(lua.eval(#"local t = {} for k in pairs(pekit.query.decode("z=1&y[b]=2&y[a]=3&x=4")) do t[#t + 1] = k end return table.concat(t, " ")"#), #""z y x""#)
        XCTAssertEqual(lua.eval(#"local t = {} for k in pairs(pekit.query.decode("z=1&y[b]=2&y[a]=3").y) do t[#t + 1] = k end return table.concat(t, " ")"#), #""b a""#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("https://h/p?a[9]=1#x", {server = "qs", arrayLimit = 3})"#), #"pekit.ordered{ {"a", pekit.ordered{ {"9", "1"} }} }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a=1;b=2&c=3", "go")"#), "pekit.ordered{ {\"c\", pekit.array{ \"3\" }} }\t\"invalid semicolon separator in query\"")
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a[]=1&a[b]=2", "rack")"#), "error: stdin:1: pekit.query.decode: Rack ParameterTypeError: expected Hash (got Array) for param `a' (parameter \"a[b]=2\" at byte 6)")
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a;b,c", {delimiter = {pattern = "[;,]"}})"#), #"pekit.ordered{ {"a", ""}, {"b", ""}, {"c", ""} }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a=X&b=y", {decoder = function(s, default, charset, kind) return kind == "value" and default(s):lower() or s end})"#), #"pekit.ordered{ {"a", "x"}, {"b", "y"} }"#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("a", {servr = "qs"})"#), #"error: stdin:1: pekit.query.decode: bad argument #2 (unknown field "servr" (did you mean "server"?); known: server, policy, ordered, allowDots, allowPrototypes, allowSparse, arrayLimit, charset, charsetSentinel, comma, decoder, delimiter, depth, ignoreQueryPrefix, interpretNumericEntities, parameterLimit, parseArrays, plainObjects, strictNullHandling)"#)
        XCTAssertEqual(lua.eval(#"#pekit.query.check({a = {"1", "2"}}, "qs", "rack")"#), "1")
        XCTAssertEqual(lua.eval(#"pekit.query.check({a = {"1", "2"}}, "qs", "rack")[1].problem"#), #""sent as a list of 2, arrives as a map of 2 keys: Rack reads indices as hash keys""#)
        XCTAssertEqual(lua.eval(#"select(3, pekit.query.check({a = "1"}, "qs", {server = "python"}))[1].status"#), #""exact""#)
        XCTAssertEqual(lua.eval(#"pekit.query.compare({s = "a b"}, {"rfc3986", "form"})[2].differs[1]"#), "true")
        XCTAssertEqual(lua.eval(#"pekit.query.encode({f = print})"#), "error: stdin:1: pekit.query.encode: params.f: cannot use a function as a value")
    }

    func testPluginComparatorLimits() throws {
        let directory = try pluginDirectory([
            "spinorder": #"return { kind = "policy", order = function(a, b) while true do end end }"#,
            "failorder": #"return { kind = "policy", order = function(a, b) error("no order for " .. a) end }"#,
            "weird": #"return { kind = "policy", order = function(a, b) return math.random() < 0.5 end }"#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory, repoPlugins], budget: 1_000_000))
        let value = #"pekit.ordered{ {"b", 1}, {"a", 2} }"#
        XCTAssertEqual(lua.eval("select(2, pcall(pekit.query.encode, \(value), 'spinorder'))").replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.query.encode: plugin \"spinorder\" (DIR/spinorder.lua): order: instruction budget exceeded (an endless loop?)""#)
        XCTAssertEqual(lua.eval("select(2, pcall(pekit.query.encode, \(value), 'failorder'))").replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.query.encode: plugin \"failorder\" (DIR/failorder.lua): order: failorder.lua:1: no order for a""#)
        // An inconsistent comparator: every pair is still there once.
        XCTAssertEqual(lua.eval("#pekit.query.encode(\(value), 'weird')"), "7")
        XCTAssertEqual(lua.eval("pekit.query.encode(\(value), 'qs')"), #""b=1&a=2""#, "the runtime goes on")
    }
}
