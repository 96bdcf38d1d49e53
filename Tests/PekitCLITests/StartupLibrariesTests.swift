import Foundation
import XCTest

/// What every pekit start-up loads (issue 47): the libraries only some commands use are loaded
/// when they are first needed (libcurl for a send, libcrypto for a signature, ICU for a
/// non-ASCII host, libedit for the REPL), so none is a NEEDED entry of the executable.
final class StartupLibrariesTests: XCTestCase {
    func testOnlyLuaAndTheRuntimeAreLinked() throws {
        let dynamic = try PekitProcess.runShell("readelf -d '\(PekitProcess.binary.path)'")
        let needed = dynamic.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        XCTAssertTrue(needed.contains("liblua5.4.so.0"), dynamic)
        for lazy in ["libedit", "libcurl", "libcrypto", "libssl", "libicu", "libtinfo", "libbsd"] {
            XCTAssertFalse(needed.contains { $0.hasPrefix(lazy) }, "\(lazy) is linked: \(needed)")
        }
    }
}
