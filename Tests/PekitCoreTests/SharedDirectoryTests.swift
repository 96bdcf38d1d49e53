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

    /// A jar that loaded no file keeps no journal of its stores (issue 70: a crawler's jar paid a
    /// dictionary write a cookie for it): merging it writes every cookie it holds, and its
    /// removals; from then on only what changes. The result is the journaled jar's.
    func testAJarThatLoadedNoFileMergesAllItsCookies() throws {
        let dir = try makeTemporaryDirectory("merge-unjournaled")
        let path = dir.appendingPathComponent("jar.txt").path
        let url = try RequestURL("http://example.com/")
        func other(_ sets: [String]) throws {
            let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
            if FileManager.default.fileExists(atPath: path) { try jar.load(from: path) }
            for set in sets { _ = try jar.receive(set, from: url) }
            XCTAssertTrue(try jar.save(mergingInto: path))
        }
        let mine = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        XCTAssertFalse(mine.hasChanges)
        _ = try mine.receive("a=1; Max-Age=3600", from: url)
        _ = try mine.receive("gone=1; Max-Age=3600", from: url)
        XCTAssertTrue(mine.hasChanges)
        XCTAssertEqual(mine.remove(CookieKey(name: "gone", domain: "example.com", path: "/", hostOnly: true)), true)
        // Meanwhile another writer made the file, with a cookie of its own and one this jar removed.
        try other(["theirs=1; Max-Age=3600", "gone=old; Max-Age=3600"])
        XCTAssertTrue(try mine.save(mergingInto: path))
        func fileHeader() throws -> String? {
            let read = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
            try read.load(from: path)
            return try read.header(for: url)
        }
        XCTAssertEqual(try fileHeader(), "theirs=1; a=1")
        // The other writer changes a; this jar, unchanged since its save, does not write it back.
        try other(["a=2; Max-Age=3600"])
        XCTAssertFalse(try mine.save(mergingInto: path), "no change since the last save")
        _ = try mine.receive("b=1; Max-Age=3600", from: url)
        XCTAssertTrue(try mine.save(mergingInto: path))
        XCTAssertEqual(try fileHeader(), "theirs=1; a=2; b=1")
    }
}

/// Cookie attributes as RFC 6265bis §5.6 reads them (issue 41): a control character anywhere
/// refuses the cookie whole; an attribute value over 1,024 octets is ignored, as if absent.
final class CookieAttributeLimitTests: XCTestCase {
    func testControlCharactersAndLongAttributes() throws {
        let jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\n"), clock: { 1_800_000_000 })
        let url = try RequestURL("https://www.example.com/dir/page")
        XCTAssertEqual(try jar.receive("a=1; Path=/te\u{05}st", from: url),
                       .rejected(name: "a", reason: "the Set-Cookie value holds control byte 0x05 at byte 14 (the whole cookie is ignored, as RFC 6265bis section 5.6 says)", rule: .controlCharacter))
        XCTAssertEqual(try jar.receive("b=1; Domain=example.com\u{7F}", from: url), .rejected(name: "b", reason: "the Set-Cookie value holds control byte 0x7F at byte 24 (the whole cookie is ignored, as RFC 6265bis section 5.6 says)", rule: .controlCharacter))
        let longPath = "/" + String(repeating: "p", count: 1035)
        guard case .stored(let c, _) = try jar.receive("c=1; Path=\(longPath)", from: url) else { return XCTFail("c") }
        XCTAssertEqual(c.path, "/dir", "a 1,036-byte Path is ignored: the default path")
        guard case .stored(let d, _) = try jar.receive("d=1; Domain=" + String(repeating: "d", count: 1025), from: url) else { return XCTFail("d") }
        XCTAssertTrue(d.hostOnly, "a 1,025-byte Domain is ignored: host-only")
        guard case .stored(let e, _) = try jar.receive("e=1; Max-Age=-" + String(repeating: "9", count: 1024), from: url) else { return XCTFail("e") }
        XCTAssertNil(e.expires, "a Max-Age over 1,024 octets is ignored: a session cookie")
        guard case .stored(let f, _) = try jar.receive("f=1; Path=/" + String(repeating: "p", count: 1023), from: url) else { return XCTFail("f") }
        XCTAssertEqual(f.path.utf8.count, 1024, "1,024 octets are applied")
        // A file's cookie is held to the same rule: its line is skipped, nothing raw written.
        let (loaded, warnings) = try jar.load(Array("www.example.com\tFALSE\t/te\u{05}st\tFALSE\t0\tg\t1\n".utf8), format: .netscape, name: "jar.txt")
        XCTAssertEqual(loaded, 0)
        XCTAssertEqual(warnings, ["jar.txt:1: cookie \"g\": the path holds control byte 0x05 at byte 4; line skipped"])
    }
}
