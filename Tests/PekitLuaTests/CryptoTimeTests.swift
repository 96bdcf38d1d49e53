import Foundation
import XCTest
import PekitCore
import PekitCrypto
@testable import PekitLua
@testable import PekitTools

/// pekit.crypto and pekit.time from Lua (their vectors are in PekitCryptoTests).
final class CryptoTimeModuleTests: XCTestCase {
    func testFromLua() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"pekit.crypto.hex.encode(pekit.crypto.sha256("abc"))"#), #""ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad""#)
        XCTAssertEqual(lua.eval(#"local h = pekit.crypto.hash("SHA-1") h:update("a"):update("bc") return pekit.crypto.hex.encode(h:final())"#),
                       #""a9993e364706816aba3e25717850c26c9cd0d89d""#)
        XCTAssertEqual(lua.eval(#"local h = pekit.crypto.hash("md5") h:final() return select(2, pcall(h.final, h))"#), #""hash.final: the md5 digest is already finished""#)
        XCTAssertEqual(lua.eval(#"pekit.crypto.hmac("sha3", "k", "d")"#), #"error: stdin:1: pekit.crypto.hmac: unknown digest "sha3" (known: md5, sha1, sha224, sha256, sha384, sha512)"#)
        XCTAssertEqual(lua.eval(#"pekit.crypto.base64url.encode("\255\254\253")"#), #""__79""#)
        XCTAssertEqual(lua.eval(#"pekit.crypto.base64.decode("aGVsbG8")"#), #"error: stdin:1: pekit.crypto.base64.decode: invalid base64 at byte 7: the input ends without its 1 padding character ("=")"#)
        XCTAssertEqual(lua.eval(#"#pekit.crypto.random(32), pekit.crypto.random(32) ~= pekit.crypto.random(32)"#), "32\ttrue")
        XCTAssertEqual(lua.eval(#"pekit.crypto.equal("abc", "abc"), pekit.crypto.equal("abc", "abd"), pekit.crypto.equal("abc", "ab")"#), "true\tfalse\tfalse")
        XCTAssertEqual(lua.eval(#"pekit.time.format(784111777, "http"), pekit.time.format(1764504000), pekit.time.format(1764504000.25, "iso8601-basic")"#),
                       "\"Sun, 06 Nov 1994 08:49:37 GMT\"\t\"2025-11-30T12:00:00Z\"\t\"20251130T120000Z\"")
        XCTAssertEqual(lua.eval(#"pekit.time.parse("Sunday, 06-Nov-94 08:49:37 GMT", "http"), math.type(pekit.time.parse("20251130T120000Z", "iso8601-basic"))"#), "784111777\t\"integer\"")
        XCTAssertEqual(lua.eval(#"pekit.time.format(0, "rfc822")"#), #"error: stdin:1: pekit.time.format: bad argument #2 (format "iso8601", "iso8601-basic" or "http" expected, got "rfc822")"#)
        XCTAssertEqual(lua.eval(#"local t = pekit.time.now() pekit.time.sleep(0.05) return pekit.time.now() - t >= 0.05"#), "true")
    }
}
