import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

/// The Lua API reference: docs/reference/lua-api.md is made from it, every example in it runs and prints
/// what it says, and the REPL's help finds entries by name and by value.
final class APIDocsTests: XCTestCase {
    func testTheReferencePageIsMadeFromTheReference() throws {
        let page = try String(contentsOfFile: URL(fileURLWithPath: repoPlugins).deletingLastPathComponent().appendingPathComponent("docs/reference/lua-api.md").path, encoding: .utf8)
        XCTAssertEqual(page, LuaAPIDoc.markdownPage, "docs/reference/lua-api.md differs from LuaAPIDocs.swift: run scripts/docs-generate")
        XCTAssertTrue(page.contains("\n" + LuaAPIDoc.markdownTable))
    }

    /// Every function a script can reach under `pekit` (and every callable table: `pekit.request`)
    /// has its entry in the reference, by its full name.
    func testEveryFunctionHasItsEntry() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let documented = Set(LuaAPIDoc.all.flatMap(\.names)).sorted().map { "[\"\($0)\"] = true" }.joined(separator: ", ")
        let result = lua.eval(#"""
            (function()
              local documented = { \#(documented) }
              local seen, missing, count = {}, {}, 0
              local function walk(t, prefix, depth)
                if depth > 3 or seen[t] then return end
                seen[t] = true
                for k, v in pairs(t) do
                  if type(k) == "string" then
                    local name = prefix .. "." .. k
                    local mt = getmetatable(v)
                    if type(v) == "function" or (type(v) == "table" and type(mt) == "table" and mt.__call) then
                      count = count + 1
                      if not documented[name] then missing[#missing + 1] = name end
                    end
                    if type(v) == "table" then walk(v, name, depth + 1) end
                  end
                end
              end
              walk(pekit, "pekit", 0)
              table.sort(missing)
              return count > 50, table.concat(missing, " ")
            end)()
            """#)
        XCTAssertEqual(result, "true\t\"\"", "pekit functions with no LuaAPIDocs entry")
    }

    func testEveryExampleRunsAndPrintsItsResult() throws {
        var failures: [String] = []
        for doc in LuaAPIDoc.all {
            guard let example = doc.example else { continue }
            let repl = LuaREPL(runtime: try makeRuntime())
            let got = repl.feed(example)
            if got != .output(doc.result ?? "") { failures.append("\(doc.names[0]): \(example)\n  got  \(got)\n  want \(doc.result ?? "")") }
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(LuaAPIDoc.all.filter { $0.example != nil }.count, 30)
    }

    func testHelpByNameAndByValue() throws {
        let repl = LuaREPL(runtime: try makeRuntime())
        guard case .output(let text) = repl.feed(":help pekit.query.encode") else { return XCTFail("no help") }
        XCTAssertTrue(text.hasPrefix("pekit.query.encode(t [, policy])\n  the query string of nested parameters t"), text)
        XCTAssertTrue(text.hasSuffix("example:\n  > pekit.query.encode({user = {name = \"ada\", tags = {\"x\", \"y\"}}}, \"rack\")\n  \"user[name]=ada&user[tags][]=x&user[tags][]=y\""), text)
        XCTAssertEqual(repl.feed(":help nosuch"), .error("no help for nosuch (:help lists what there is)"))
        guard case .output(let module) = repl.feed(":help pekit.url") else { return XCTFail("no module help") }
        XCTAssertEqual(module.components(separatedBy: "\n\n").count, 3, "parse, build, domain_to_ascii/unicode")
        XCTAssertEqual(repl.feed("help(print)"), .error("stdin:1: help: no help for this function (help takes a pekit function or a name, as help(pekit.encode) or help(\"jar:receive\"))\nstack traceback:\n\t[C]: in function 'help'\n\tstdin:1: in main chunk"))
    }
}
