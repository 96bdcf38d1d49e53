import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

final class ThreadTests: XCTestCase {
    /// A runtime used from another thread refuses with a clear error and stays usable at home.
    func testOtherThreadsAreRefused() throws {
        let runtime = try makeRuntime()
        let repl = LuaREPL(runtime: runtime)
        XCTAssertEqual(repl.eval("x = 41"), "")
        let box = DataBoxes()
        let thread = Thread {
            do { try runtime.runChunk(Array("x = 0".utf8)); box.messages.append("ran") } catch { box.messages.append("\(error)") }
            box.messages.append(repl.eval("x"))
            box.done.signal()
        }
        thread.start()
        box.done.wait()
        XCTAssertEqual(box.messages, [LuaRuntime.wrongThread, "error: " + LuaRuntime.wrongThread])
        XCTAssertEqual(repl.eval("x + 1"), "42")
    }

    /// Separate runtimes on separate threads at once (run under --sanitize=thread too).
    func testOneRuntimePerThreadRunsConcurrently() throws {
        let results = DataBoxes()
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                let repl = LuaREPL(runtime: try makeRuntime())
                _ = repl.eval(#"t = {} for i = 1, 2000 do t[#t + 1] = pekit.query.encode({ a = { i, "x y" }, n = \#(i) }, "qs") end"#)
                let last = repl.eval("t[#t]")
                lock.lock(); results.messages.append(last); lock.unlock()
            } catch {
                lock.lock(); results.messages.append("\(error)"); lock.unlock()
            }
        }
        XCTAssertEqual(results.messages.sorted(), (0..<4).map { #""a%5B0%5D=2000&a%5B1%5D=x%20y&n=\#($0)""# })
    }
}

final class DataBoxes: @unchecked Sendable {
    var messages: [String] = []
    let done = DispatchSemaphore(value: 0)
}
