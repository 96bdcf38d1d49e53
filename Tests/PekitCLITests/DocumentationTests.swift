import Foundation
import XCTest
import PekitTestSupport

/// The documentation as a reader meets it (issue 46): README short, every link resolving, every
/// example in README and the guides run against the binary and printing what the page shows,
/// the generated references and the man page current, and the man page rendering cleanly.
///
/// Examples are found by their form, so a new one is checked without a line of test:
/// - a ```sh block with `$ ` lines: each command runs under /bin/sh (LANG=C, the binary first on
///   PATH, in a fresh directory beside a link to scripts/, the test server's address in
///   PEKIT_DEMO_URL), and the lines under it are its output (standard error included), byte for
///   byte; a line ending in " …" is a prefix. A command may continue over lines with a heredoc
///   (`<<'EOF'` to `EOF`).
/// - a ```lua block: run with `pekit run -` the same way, which must succeed; each `--> text`
///   comment in it is a line it prints, in order. A block just after `<!-- file: PATH -->` is
///   that file of the repository instead, word for word, and one after `<!-- excerpt: PATH -->`
///   a part of it.
final class DocumentationTests: XCTestCase {
    static let root = PekitProcess.packageRoot

    /// README.md and every Markdown file under docs/, by path from the root.
    static func pages() throws -> [String] {
        let docs = root.appendingPathComponent("docs")
        let found = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") } ?? []
        return ["README.md"] + found.sorted().map { "docs/" + $0 }
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func testREADMEIsShort() throws {
        let lines = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        XCTAssertLessThanOrEqual(lines, 200, "README.md is \(lines) lines; the guides under docs/ hold the rest")
        XCTAssertTrue(try Self.read("README.md").hasPrefix("# pekit\n\nOn a fresh Debian machine with Swift, from this directory:\n\n```sh\nscripts/run scripts/examples/"))
    }

    /// Every relative link of every page names a file that exists, and an anchor names a heading
    /// of that page (GitHub's slugs: lower case, spaces to hyphens, punctuation dropped).
    func testEveryLinkResolves() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var broken: [String] = [], checked = 0
        for page in try Self.pages() {
            let text = try Self.read(page)
            let prose = Self.outsideCode(text)
            for match in link.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                guard let range = Range(match.range(at: 1), in: prose) else { continue }
                let target = String(prose[range])
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let directory = (page as NSString).deletingLastPathComponent
                let file = parts[0].isEmpty ? page : ((directory as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path, isDirectory: &isDirectory) else {
                    broken.append("\(page): \(target): no file \(file)"); continue
                }
                if parts.count == 2, !isDirectory.boolValue {
                    let anchors = Self.anchors(try Self.read(file))
                    if !anchors.contains(parts[1]) { broken.append("\(page): \(target): no heading with that anchor in \(file)") }
                }
            }
        }
        XCTAssertGreaterThan(checked, 25)
        XCTAssertEqual(broken, [], "broken links")
    }

    /// Every ```sh example of every page prints what the page shows.
    func testEveryShellExampleRuns() throws {
        var steps = 0
        for page in try Self.pages() {
            for block in Self.blocks(try Self.read(page), language: "sh") where block.code.contains("\n$ ") || block.code.hasPrefix("$ ") {
                steps += try runShellBlock(block.code, page: page, line: block.line)
            }
        }
        XCTAssertGreaterThanOrEqual(steps, 30)
    }

    /// Every ```lua example runs, printing what its `-->` comments say; a file's copy is the file.
    func testEveryLuaExampleRuns() throws {
        var ran = 0, files = 0
        for page in try Self.pages() {
            for block in Self.blocks(try Self.read(page), language: "lua") {
                let place = "\(page):\(block.line)"
                if let path = block.file {
                    XCTAssertEqual(block.code, try Self.read(path), "\(place) is not \(path) as it is")
                    files += 1
                    continue
                }
                if let path = block.excerpt {
                    XCTAssertTrue(try Self.read(path).contains(block.code), "\(place) is not a part of \(path) as it is")
                    files += 1
                    continue
                }
                let directory = try workDirectory()
                let result = try PekitProcess.run(["run", "-"], stdin: Array(block.code.utf8), directory: directory, environment: try exampleEnvironment())
                XCTAssertEqual(result.status, 0, "\(place): \(result.stderr)")
                XCTAssertEqual(result.stderr, "", place)
                let expected = block.code.split(separator: "\n").compactMap { line -> String? in
                    guard let arrow = line.range(of: "--> ") else { return nil }
                    return String(line[arrow.upperBound...])
                }
                let got = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast(result.stdout.hasSuffix("\n") ? 1 : 0).map(String.init)
                XCTAssertEqual(got.count, expected.count, "\(place): printed\n\(result.stdout)")
                for (have, want) in zip(got, expected) {
                    if want.hasSuffix("…") { XCTAssertTrue(have.hasPrefix(String(want.dropLast())), "\(place)\n  got  \(have)\n  want \(want)") }
                    else { XCTAssertEqual(have, want, place) }
                }
                ran += 1
            }
        }
        XCTAssertGreaterThanOrEqual(ran, 5)
        XCTAssertGreaterThan(files, 0)
    }

    /// The guides' Swift is real code: each ```swift block is a file of the repository, or a part
    /// of one, that a test builds (the consumer package's program, which ConsumerPackageTests
    /// builds in Swift 6 mode and runs). docs/BRIDGE.md's worked examples of code to add are not.
    func testEverySwiftExampleIsCodeThatBuilds() throws {
        var checked = 0
        for page in try Self.pages() where page != "docs/BRIDGE.md" {
            for block in Self.blocks(try Self.read(page), language: "swift") {
                let place = "\(page):\(block.line)"
                guard let path = block.file ?? block.excerpt else { XCTFail("\(place): a Swift example with no <!-- file: --> or <!-- excerpt: --> line before it"); continue }
                let text = try Self.read(path)
                XCTAssertTrue(block.file != nil ? text == block.code : text.contains(block.code), "\(place) is not \(path) as it is")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0)
    }

    /// The generated references are what the binary prints now (scripts/docs-generate rewrites them).
    func testGeneratedReferencesAreCurrent() throws {
        for (path, args) in [("docs/reference/cli.md", ["help", "--reference"]), ("docs/reference/lua-api.md", ["help", "--lua-api"]), ("docs/man/pekit.1", ["help", "--man"])] {
            XCTAssertEqual(try Self.read(path), try PekitProcess.run(args).stdout, "\(path) is stale: run scripts/docs-generate")
        }
    }

    /// Each guide starts with its topic's summary, as `pekit help TOPIC` prints it.
    func testGuidesStartWithTheirTopicsSummary() throws {
        let topics = try PekitProcess.run(["help", "topics"]).stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(topics.count, 9)
        for topic in topics {
            let help = try PekitProcess.run(["help", topic]).stdout
            let guide = try XCTUnwrap(help.range(of: #"The whole guide: (\S+)"#, options: .regularExpression).map { String(help[$0].dropFirst("The whole guide: ".count)) })
            let summary = String(help.components(separatedBy: "\n\n")[1...].joined(separator: "\n\n").components(separatedBy: "\n\nThe whole guide: ")[0])
            let page = try Self.read(guide)
            XCTAssertTrue(page.contains("<!-- summary: pekit help \(topic) -->\n```text\n\(summary)\n```\n<!-- end of summary -->"), "\(guide) does not start with the summary of 'pekit help \(topic)': run scripts/docs-generate")
        }
        let unknown = try PekitProcess.run(["help", "cookes"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "pekit help: no command or topic 'cookes'; did you mean 'cookies'? (see 'pekit help topics')\n")
    }

    /// The man page renders with man-db and groff without a warning, and someone with only it
    /// finds every option `pekit request` takes.
    func testManPageRendersAndHoldsEveryRequestOption() throws {
        let page = Self.root.appendingPathComponent("docs/man/pekit.1").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["MANWIDTH=100", "LC_ALL=C.UTF-8", "man", "--warnings=w", "-l", page]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(warnings, "")
        // As rendered, hyphenation undone: each option's forms on the line that shows it.
        let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var missing: [String] = []
        for option in try PekitProcess.run(["request", "--list-options"]).stdout.split(separator: "\n") {
            let label = option.replacingOccurrences(of: " VALUE", with: "")
            if !lines.contains(where: { $0 == label || $0.hasPrefix(label + " ") }) { missing.append(label) }
        }
        XCTAssertEqual(missing, [], "options of pekit request the man page does not show")
    }

    /// scripts/install's man step puts the page where `man pekit` finds it from PREFIX/bin.
    func testInstalledManPageIsFoundByMan() throws {
        let prefix = try makeTemporaryDirectory("man-prefix")
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("pekit"), withDestinationURL: PekitProcess.binary)
        _ = try PekitProcess.output(of: Self.root.appendingPathComponent("scripts/lib/install-man.sh").path, [prefix.path, bin.appendingPathComponent("pekit").path])
        XCTAssertEqual(try Self.read("docs/man/pekit.1"), try String(contentsOf: prefix.appendingPathComponent("share/man/man1/pekit.1"), encoding: .utf8))
        let found = try PekitProcess.output(of: "/bin/sh", ["-c", "unset MANPATH; PATH='\(bin.path)':/usr/bin:/bin man -w pekit"])
        XCTAssertEqual(String(decoding: found, as: UTF8.self), prefix.appendingPathComponent("share/man/man1/pekit.1").path + "\n")
    }

    // MARK: - Reading pages

    struct Block { let code: String; let line: Int; let file: String?; var excerpt: String? = nil }

    /// The fenced blocks of `language`, with their first line and the file a `<!-- file: -->`
    /// comment just before them names.
    static func blocks(_ text: String, language: String) -> [Block] {
        var out: [Block] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            if lines[i] == "```" + language {
                var j = i + 1
                while j < lines.count && lines[j] != "```" { j += 1 }
                let previous = i > 0 ? lines[i - 1] : ""
                let file = previous.hasPrefix("<!-- file: ") && previous.hasSuffix(" -->") ? String(previous.dropFirst(11).dropLast(4)) : nil
                let excerpt = previous.hasPrefix("<!-- excerpt: ") && previous.hasSuffix(" -->") ? String(previous.dropFirst(14).dropLast(4)) : nil
                out.append(Block(code: lines[(i + 1)..<min(j, lines.count)].joined(separator: "\n") + "\n", line: i + 2, file: file, excerpt: excerpt))
                i = j + 1
            } else if lines[i].hasPrefix("```") {
                var j = i + 1
                while j < lines.count && lines[j] != "```" { j += 1 }
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// The text with fenced blocks and code spans blanked (links there are not links).
    static func outsideCode(_ text: String) -> String {
        var out: [String] = [], fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); out.append(""); continue }
            out.append(fenced ? "" : line.replacingOccurrences(of: #"`[^`]*`"#, with: "``", options: .regularExpression))
        }
        return out.joined(separator: "\n")
    }

    /// GitHub's anchors for the headings of a page.
    static func anchors(_ text: String) -> Set<String> {
        var out: Set<String> = []
        for line in outsideCode(text).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces).lowercased()
            var slug = ""
            for c in title {
                if c.isLetter || c.isNumber || c == "-" || c == "_" { slug.append(c) } else if c == " " { slug.append("-") }
            }
            out.insert(slug)
        }
        return out
    }

    // MARK: - Running examples

    func workDirectory() throws -> URL {
        let dir = try makeTemporaryDirectory("docs")
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("scripts"), withDestinationURL: Self.root.appendingPathComponent("scripts"))
        return dir
    }

    func exampleEnvironment() throws -> [String: String] {
        let server = try TestServer.shared()
        return ["PEKIT_DEMO_URL": server.base, "PEKIT_DEMO_HTTPS_PORT": String(server.httpsPort), "PEKIT_DEMO_CACERT": server.cacert, "LANG": "C", "LANGUAGE": "", "LC_ALL": ""]
    }

    /// Runs each `$ command` of a block and compares the lines under it; returns how many ran.
    func runShellBlock(_ code: String, page: String, line: Int) throws -> Int {
        var steps: [(command: String, expected: [String])] = []
        var heredoc: String?
        for text in code.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if let end = heredoc {
                steps[steps.count - 1].command += "\n" + text
                if text == end { heredoc = nil }
            } else if text.hasPrefix("$ ") {
                steps.append((String(text.dropFirst(2)), []))
                if let range = text.range(of: #"<<'?([A-Z]+)'?"#, options: .regularExpression) {
                    heredoc = text[range].replacingOccurrences(of: "<<", with: "").replacingOccurrences(of: "'", with: "")
                }
            } else if !steps.isEmpty {
                steps[steps.count - 1].expected.append(text)
            }
        }
        let dir = try workDirectory()
        let bin = PekitProcess.binary.deletingLastPathComponent().path
        let environment = try exampleEnvironment().map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
        for step in steps {
            let out = try PekitProcess.output(of: "/bin/sh", ["-c", "exec 2>&1\n\(environment)\nexport PATH='\(bin)':$PATH\n\(step.command)\n"], directory: dir)
            let got = String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            let place = "\(page):\(line): $ \(step.command)"
            XCTAssertEqual(got.count, step.expected.count, "\(place)\nprinted:\n\(got.joined(separator: "\n"))")
            for (have, want) in zip(got, step.expected) {
                if want.hasSuffix(" …") { XCTAssertTrue(have.hasPrefix(String(want.dropLast(2))), "\(place)\n  got  \(have)\n  want \(want)") }
                else { XCTAssertEqual(have, want, place) }
            }
        }
        return steps.count
    }
}
