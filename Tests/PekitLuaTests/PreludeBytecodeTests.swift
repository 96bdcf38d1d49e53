import CLua
import CLuaShim
import XCTest
@testable import PekitLua
@testable import PekitTools

/// The precompiled prelude (Sources/CLuaShim/Data/prelude.c, from scripts/prelude-bytecode) is what
/// the linked Lua makes of the prelude's current source, byte for byte, and is the one loaded.
final class PreludeBytecodeTests: XCTestCase {
    private func committed(for source: String = preludeSource) -> [UInt8] {
        var length = 0
        var source = source
        let pointer = source.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { pekit_prelude_bytecode($0.baseAddress, $0.count, &length) }
        }
        guard let pointer else { return [] }
        return (0..<length).map { UInt8(bitPattern: pointer[$0]) }
    }

    func testTheCommittedBytecodeIsThePreludeCompiledByTheLinkedLua() throws {
        // Built against Debian's Lua 5.4.4, the release that made the file: the fast path is on.
        XCTAssertFalse(committed().isEmpty, "prelude.c is for another release of Lua than the one pekit is built against")
        let runtime = try makeRuntime()
        runtime.stack.push(preludeSource)
        lua_setglobal(runtime.mainState, "source")
        runtime.stack.push(committed())
        lua_setglobal(runtime.mainState, "committed")
        let lua = LuaREPL(runtime: runtime)
        let compare = #"""
        local dump = string.dump(assert(load(source, "=pekit.prelude")))
        if dump == committed then return true end
        return "differs: run scripts/prelude-bytecode", #dump, #committed
        """#
        XCTAssertEqual(lua.eval(compare), "true")
    }

    func testBytecodeMadeFromAnotherTextIsNotUsed() {
        XCTAssertEqual(committed(for: preludeSource + " "), [])
        XCTAssertEqual(committed(for: String(preludeSource.dropLast())), [])
        XCTAssertEqual(committed(for: ""), [])
    }

    func testThePreludeLoadedNamesItsOwnLines() throws {
        // Debug information is kept: a function of the prelude says where it is defined.
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"local info = debug.getinfo(pekit.inspect, "S") return info.source, info.linedefined > 0"#), "\"=pekit.prelude\"\ttrue")
    }
}
