import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// FilePaths, which took the place of Foundation's URL and FileManager on the start path (issue
/// 47), gives what they gave for the paths pekit builds: a script's directory, the plugins
/// beside a binary, a file in a directory.
final class FilePathsTests: XCTestCase {
    func testDirectoryIsNSStringsDeletingLastPathComponent() {
        for path in ["a/b.lua", "b.lua", "/b.lua", "/a/b/c.lua", "a//b.lua", "a/b/", "/", "./x.lua", "../x.lua", "a/./b.lua"] {
            let expected = (path as NSString).deletingLastPathComponent
            XCTAssertEqual(FilePaths.directory(of: path), expected.isEmpty ? "." : expected, path)
        }
    }

    func testJoinedIsNSStringsAppendingPathComponent() {
        for (directory, name) in [("a", "b.lua"), ("a/", "b.lua"), ("/", "plugins"), ("/usr/local/share", "pekit/plugins"), ("", "x.lua")] {
            XCTAssertEqual(FilePaths.joined(directory, name), (directory as NSString).appendingPathComponent(name), "\(directory) + \(name)")
        }
    }

    func testAbsoluteAndResolvedAreFoundations() throws {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertEqual(FilePaths.workingDirectory(), cwd)
        for path in ["x.lua", "a/b.lua", "./x.lua", "/etc/hosts"] {
            XCTAssertEqual(FilePaths.absolute(path), URL(fileURLWithPath: path).standardizedFileURL.path, path)
        }
        let dir = try makeTemporaryDirectory("filepaths")
        let target = dir.appendingPathComponent("real")
        try Data("x".utf8).write(to: target)
        let link = dir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertEqual(FilePaths.resolved(link.path), URL(fileURLWithPath: link.path).resolvingSymlinksInPath().path)
        XCTAssertEqual(FilePaths.linkTarget(link.path), try FileManager.default.destinationOfSymbolicLink(atPath: link.path))
        XCTAssertNil(FilePaths.linkTarget(target.path))
        XCTAssertNil(FilePaths.resolved(dir.appendingPathComponent("missing").path))
        XCTAssertTrue(FilePaths.exists(link.path) && FilePaths.isReadable(target.path) && FilePaths.isDirectory(dir.path))
        XCTAssertFalse(FilePaths.isDirectory(target.path) || FilePaths.exists(dir.appendingPathComponent("missing").path))
    }

    /// Files.read sizes its reads from stat: every size around its buffer's reads whole.
    func testReadGivesEveryByteAtEverySize() throws {
        let dir = try makeTemporaryDirectory("files-read")
        var rng = SplitMix(seed: 47)
        for size in [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 200_000] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let file = dir.appendingPathComponent("f\(size)")
            try Data(bytes).write(to: file)
            XCTAssertEqual(Files.read(file.path), bytes, "\(size)")
            guard case .bytes(let limited) = Files.read(file.path, limit: size) else { return XCTFail("\(size)") }
            XCTAssertEqual(limited, bytes)
            if size > 0, case .tooLarge = Files.read(file.path, limit: size - 1) {} else if size > 0 { XCTFail("\(size) - 1 is not too large") }
        }
    }
}
