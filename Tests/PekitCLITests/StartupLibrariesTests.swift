import Foundation
import XCTest

/// What every pekit start-up loads (issue 47): the libraries only some commands use are loaded
/// when they are first needed (libcurl for a send, libcrypto for a signature, libedit for the
/// REPL), so none is a NEEDED entry of the executable; IDNA is pekit's own, so ICU is never loaded.
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
        // The release build (scripts/lib/deps.sh, what scripts/run and scripts/install make) links
        // the C++ runtime and the unwinder in: PEKIT_BIN=.build/release/pekit swift test checks it.
        if PekitProcess.binary.path.contains("/release/") {
            XCTAssertEqual(needed.sorted(), ["ld-linux-x86-64.so.2", "libc.so.6", "liblua5.4.so.0", "libm.so.6"])
        }
    }

    /// No ICU at all: the executable names no ICU library to load, even lazily.
    func testNoICUIsNamed() throws {
        let data = try Data(contentsOf: PekitProcess.binary)
        XCTAssertNil(data.range(of: Data("libicuuc".utf8)))
        XCTAssertEqual(try PekitProcess.runShell("'\(PekitProcess.binary.path)' url host '\u{4F8B}\u{5B50}.\u{4E2D}\u{56FD}'"), "xn--fsqu00a.xn--fiqs8s\t\u{4F8B}\u{5B50}.\u{4E2D}\u{56FD}\n")
    }
}
