import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

final class FilesTests: XCTestCase {
    /// A file is replaced whole; a symbolic link is followed and kept; a device is written in
    /// place (renaming over /dev/null would replace the device with a file).
    func testAtomicWritesRespectLinksAndDevices() throws {
        let dir = try makeTemporaryDirectory("files")
        let real = dir.appendingPathComponent("real.txt").path, link = dir.appendingPathComponent("link.txt").path
        try Files.writeAtomically(Array("one".utf8), to: real)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try Files.writeAtomically(Array("two".utf8), to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real)
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["link.txt", "real.txt"], "no lock file is left")

        try Files.writeAtomically(Array("gone".utf8), to: "/dev/null")
        let writer = try Files.AtomicWriter(path: "/dev/null")
        try writer.write(Array("x".utf8))
        try writer.commit()
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null.lock"))

        // An aborted writer leaves nothing; a directory is refused with the system's reason.
        let aborted = try Files.AtomicWriter(path: dir.appendingPathComponent("never.bin").path)
        try aborted.write(Array("partial".utf8))
        aborted.abort()
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("never.bin").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).count, 2)
        XCTAssertThrowsError(try Files.AtomicWriter(path: dir.path)) { XCTAssertEqual("\($0)", "\(dir.path): Is a directory") }
    }
}
