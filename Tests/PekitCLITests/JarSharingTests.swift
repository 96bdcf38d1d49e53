import Foundation
import PekitTestSupport
import XCTest

/// One jar file written by several processes at once (issue 41): the command line, a Lua jar
/// through `jar:load`/`jar:save`, and a Lua jar bound to the file with `flush`, in both file
/// formats. Each writer adds cookies of its own; none is lost. And a jar that only reads the
/// file never writes it, so what others add meanwhile stays.
final class JarSharingTests: XCTestCase {
    /// `text` as a script file of its own (outside the jar's directory).
    func script(_ text: String) throws -> String {
        let file = try makeTemporaryDirectory("script").appendingPathComponent("s.lua")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func writers(_ jar: String, rounds: Int) throws -> [String] {
        let bin = PekitProcess.binary.path
        let loadSave = """
            local jar = pekit.cookies.jar()
            for i = 1, \(rounds) do
              jar:load("\(jar)", {missing_ok = true})
              jar:receive("http://ls" .. i .. ".test/", "ls" .. i .. "=1; Max-Age=3600")
              jar:save("\(jar)")
            end
            """
        let bound = """
            local jar = pekit.cookies.jar{file = "\(jar)"}
            for i = 1, \(rounds) do
              jar:receive("http://fl" .. i .. ".test/", "fl" .. i .. "=1; Max-Age=3600")
              jar:flush()
            end
            """
        let bound2 = bound.replacingOccurrences(of: "\"fl\"", with: "\"fm\"").replacingOccurrences(of: "//fl", with: "//fm")
        return [
            "for i in $(seq 1 \(rounds)); do '\(bin)' cookies receive '\(jar)' http://cli$i.test/ \"cli$i=1; Max-Age=3600\" >/dev/null || exit 1; done",
            "'\(bin)' run '\(try script(loadSave))'",
            "'\(bin)' run '\(try script(bound))'",
            "'\(bin)' run '\(try script(bound2))'",
        ]
    }

    func testFourProcessesWritingOneJarLoseNothing() throws {
        let rounds = 40
        for name in ["jar.txt", "jar.json"] {
            let dir = try makeTemporaryDirectory("sharing")
            let jar = dir.appendingPathComponent(name).path
            let script = try writers(jar, rounds: rounds).enumerated().map { "(\($1)) & p\($0)=$!" }.joined(separator: "\n")
                + "\nwait $p0 && wait $p1 && wait $p2 && wait $p3\n"
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", script]
            try shell.run()
            shell.waitUntilExit()
            XCTAssertEqual(shell.terminationStatus, 0, name)
            let listed = try PekitProcess.run(["cookies", "list", jar])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            var names = Set<String>()
            for line in listed.stdout.split(separator: "\n") {
                let name = String(line.prefix { $0 != "=" })
                if ["cli", "ls", "fl", "fm"].contains(where: { name.hasPrefix($0) && name.dropFirst($0.count).allSatisfy(\.isNumber) }) { names.insert(name) }
            }
            XCTAssertEqual(names.count, 4 * rounds, "\(name): \(listed.stdout.prefix(400))")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != name }
            XCTAssertEqual(leftovers, [], "\(name): no temporary or lock file is left")
        }
    }

    /// A script that only reads a bound jar writes nothing, so 20 cookies the command line adds
    /// while it sleeps are all still there when it ends.
    func testAJarThatOnlyReadsNeverWrites() throws {
        let dir = try makeTemporaryDirectory("reader")
        let jar = dir.appendingPathComponent("jar.txt").path
        XCTAssertEqual(try PekitProcess.run(["cookies", "receive", jar, "http://example.com/", "first=1; Max-Age=3600"]).status, 0)
        let reader = Process()
        reader.executableURL = PekitProcess.binary
        reader.arguments = ["run", try script("local jar = pekit.cookies.jar{file = \"\(jar)\"}; assert(jar:header(\"http://example.com/\") == \"first=1\"); pekit.time.sleep(1.5)")]
        try reader.run()
        Thread.sleep(forTimeInterval: 0.3)
        for i in 1...20 {
            XCTAssertEqual(try PekitProcess.run(["cookies", "receive", jar, "http://example.com/", "added\(i)=1; Max-Age=3600"]).status, 0)
        }
        reader.waitUntilExit()
        XCTAssertEqual(reader.terminationStatus, 0)
        let header = try PekitProcess.run(["cookies", "header", jar, "http://example.com/"]).stdout
        XCTAssertEqual(header.split(separator: ";").count, 21, header)
    }

    /// Out of descriptors (`ulimit -n 256`, 1,000 requests at once, before and after libcurl is
    /// loaded): each failure says what to do, a failed load of libcurl is tried again, the
    /// process goes on afterwards (files open, requests go), and the bound jar is saved.
    func testRunningOutOfDescriptors() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("descriptors")
        let jar = dir.appendingPathComponent("jar.txt").path
        func script(loadFirst: Bool) throws -> String {
            try self.script("""
                \(loadFirst ? "pekit.http.post('\(server.base)/echo', {body = 'x'})" : "")
                local jar = pekit.cookies.jar{file = "\(jar)"}
                local list = {}
                for i = 1, 1000 do list[i] = {url = "\(server.base)/cookies/set?k" .. i .. "=v", jar = jar} end
                local messages = {}
                for _, r in ipairs(pekit.http.all(list, {concurrency = 1000})) do
                  if r.error then messages[#messages + 1] = r.error end
                end
                print(#messages > 0, #messages == 0 or messages[1]:find("too many open files: raise `ulimit -n` or lower the concurrency", 1, true) ~= nil)
                print(io.open("\(jar).probe", "w") ~= nil, pekit.http.post('\(server.base)/echo', {body = 'x'}).status)
                os.remove("\(jar).probe")
                """)
        }
        for loadFirst in [false, true] {
            try? FileManager.default.removeItem(atPath: jar)
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "ulimit -n 256 && exec '\(PekitProcess.binary.path)' run '\(try script(loadFirst: loadFirst))'"]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
            XCTAssertEqual(shell.terminationStatus, 0, "libcurl loaded first: \(loadFirst)")
            XCTAssertEqual(text, "true\ttrue\ntrue\t200\n", "libcurl loaded first: \(loadFirst)")
            XCTAssertTrue(try String(contentsOfFile: jar, encoding: .utf8).contains("\tk"), "the bound jar was saved")
        }
    }
}
