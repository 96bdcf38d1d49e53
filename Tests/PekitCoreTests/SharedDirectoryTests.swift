import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// Saving a jar into a directory others can write (issue 41): nothing planted beside the jar is
/// followed or reused, and what is written is the owner's alone.
final class SharedDirectoryTests: XCTestCase {
    func jar() throws -> CookieJar {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        _ = try jar.receive("sid=secret; Max-Age=3600", from: RequestURL("http://example.com/"))
        return jar
    }

    /// A link planted at `jar.txt.tmp` (the old fixed name) is left alone and its target is not
    /// written; a planted world-writable file there is not reused: the jar is 0600 and new.
    func testPlantedTemporaryFilesAreNotUsed() throws {
        let dir = try makeTemporaryDirectory("shared")
        let path = dir.appendingPathComponent("jar.txt").path
        let victim = dir.appendingPathComponent("victim").path
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        XCTAssertEqual(symlink(victim, path + ".tmp"), 0)
        try jar().save(to: path)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("\tsid\tsecret"))
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)

        unlink(path + ".tmp")
        let planted = open(path + ".tmp", O_CREAT | O_WRONLY, 0o666)
        fchmod(planted, 0o666)
        close(planted)
        try jar().save(to: path)
        XCTAssertEqual(lstat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the saved jar is the owner's only")
        XCTAssertEqual(Files.size(path + ".tmp"), 0, "the planted file is not written")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(names, ["jar.txt", "jar.txt.tmp", "victim"], "no temporary or lock file is left")
    }

    /// A link planted at `jar.txt.lock` is refused, not followed to make the file it names.
    func testAPlantedLockLinkIsNotFollowed() throws {
        let dir = try makeTemporaryDirectory("lock")
        let path = dir.appendingPathComponent("jar.txt").path
        let target = dir.appendingPathComponent("made-by-the-link").path
        XCTAssertEqual(symlink(target, path + ".lock"), 0)
        XCTAssertThrowsError(try jar().save(to: path)) { error in
            XCTAssertEqual("\(error)", "\(path).lock: Too many levels of symbolic links")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// A merging save applies only the jar's own changes to the file as it is now, and a jar
    /// with no changes does not write at all.
    func testMergingSavesKeepOthersCookies() throws {
        let dir = try makeTemporaryDirectory("merge")
        let path = dir.appendingPathComponent("jar.txt").path
        let mine = try jar()
        XCTAssertTrue(try mine.save(mergingInto: path))
        let other = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        try other.load(from: path)
        _ = try other.receive("theirs=1; Max-Age=3600", from: RequestURL("http://example.com/"))
        XCTAssertTrue(try other.save(mergingInto: path))
        XCTAssertFalse(try mine.save(mergingInto: path), "no change since the last save")
        _ = try mine.receive("sid=; Max-Age=0", from: RequestURL("http://example.com/"))
        _ = try mine.receive("mine=2; Max-Age=3600", from: RequestURL("http://example.com/"))
        XCTAssertTrue(try mine.save(mergingInto: path))
        let read = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        try read.load(from: path)
        XCTAssertEqual(try read.header(for: RequestURL("http://example.com/")), "theirs=1; mine=2")
    }
}
