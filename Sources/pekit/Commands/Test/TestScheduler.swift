import Foundation
import PekitLua
import PekitTools

/// Finds the test files of `pekit test`'s paths.
enum TestFiles {
    /// Each path that is a file (a .lua, .http or .hurl file), and the `*_test.lua` and `*.hurl`
    /// files under each directory (a Hurl file is a test file, as `hurl --test DIR` runs them),
    /// sorted by path.
    /// - Throws: `UsageError` for a path that does not exist, or when no file is found.
    static func find(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UsageError(command: "test", message: "\(path): no such file or directory")
            }
            if !isDirectory.boolValue { files.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            var found: [String] = []
            if let walker = FileManager.default.enumerator(atPath: path) {
                for case let relative as String in walker where relative.hasSuffix("_test.lua") || relative.hasSuffix(".hurl") {
                    found.append(base + "/" + relative)
                }
            }
            files += found.sorted()
        }
        guard !files.isEmpty else {
            throw UsageError(command: "test", message: "no *_test.lua or *.hurl files under \(paths.joined(separator: ", "))")
        }
        return files
    }
}

/// Runs files on up to `jobs` threads, each file in a runtime of its own, and hands back each
/// result in the files' order as soon as it and those before it are done (so output is never
/// interleaved).
enum TestScheduler {
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var results: [TestFileResult?]
        var next = 0, working = 0
        init(count: Int) { results = Array(repeating: nil, count: count) }
    }

    static func run(files: [String], jobs: Int, options: TestOptions, directories: [String],
                    shown: (_ done: Int, _ total: Int, _ results: [TestFileResult]) -> Void) -> [TestFileResult] {
        @Sendable func runOne(_ path: String) -> TestFileResult {
            do {
                let runtime = try makeRuntime(extraPluginDirectories: directories)
                return TestRunner.run(path: path, options: options, in: runtime)
            } catch {
                var result = TestFileResult(path: path)
                result.loadError = "\(error)"
                return result
            }
        }
        if jobs == 1 || files.count == 1 {
            var results: [TestFileResult] = []
            for path in files {
                if options.stop.isSet { break }
                results.append(runOne(path))
                shown(results.count, files.count, [results[results.count - 1]])
            }
            return results
        }
        let shared = Shared(count: files.count)
        for _ in 0..<min(jobs, files.count) {
            shared.working += 1
            let thread = Thread {
                while true {
                    shared.condition.lock()
                    guard shared.next < files.count, !options.stop.isSet else {
                        shared.working -= 1
                        shared.condition.broadcast()
                        shared.condition.unlock()
                        return
                    }
                    let i = shared.next
                    shared.next += 1
                    shared.condition.unlock()
                    let result = runOne(files[i])
                    shared.condition.lock()
                    shared.results[i] = result
                    shared.condition.broadcast()
                    shared.condition.unlock()
                }
            }
            // Lua's C stack and the parser's recursion need more than a thread's default.
            thread.stackSize = 16 << 20
            thread.start()
        }
        var printed = 0, done: [TestFileResult] = []
        while true {
            shared.condition.lock()
            while printed < files.count, shared.results[printed] == nil, shared.working > 0 { shared.condition.wait() }
            var batch: [TestFileResult] = []
            while printed < files.count, let result = shared.results[printed] { batch.append(result); printed += 1 }
            let finished = shared.working == 0 && (printed == files.count || shared.results[printed] == nil)
            shared.condition.unlock()
            done += batch
            if !batch.isEmpty { shown(printed, files.count, batch) }
            if finished { break }
        }
        return done
    }
}
