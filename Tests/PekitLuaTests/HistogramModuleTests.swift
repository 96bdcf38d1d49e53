import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

/// `pekit.histogram` from Lua: the values recorded by a script read as the `hdrhistogram` PyPI
/// package reads them (the fixture PekitHTTPTests holds the recorder to), and its errors.
final class HistogramModuleTests: XCTestCase {
    private struct File: Decodable { let cases: [Case] }
    private struct Case: Decodable {
        let name: String
        let record: [[Int64]]?
        let expect: Expect
    }
    private struct Expect: Decodable { let count: Int64; let max: Int64; let percentiles: [[Double]]; let distribution: [[Double]] }

    func testAScriptsValuesReadAsTheHdrhistogramPackageReadsThem() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PekitHTTPTests/Fixtures/histogram/cases.json")
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: path))
        let c = try XCTUnwrap(file.cases.first { $0.name == "latencies, 3 digits" })
        let values = try XCTUnwrap(c.record).map { "\($0[0])" }.joined(separator: ",")
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("H = pekit.histogram() for _, v in ipairs{\(values)} do H:record(v) end return H:count(), H:max()"), "\(c.expect.count)\t\(c.expect.max)")
        for pair in c.expect.percentiles {
            XCTAssertEqual(lua.eval("H:percentile(\(pair[0]))"), "\(Int64(pair[1]))", "p\(pair[0])")
        }
        let rows = c.expect.distribution
        XCTAssertEqual(lua.eval("#H:distribution()"), "\(rows.count)")
        XCTAssertEqual(lua.eval("local r = H:distribution()[\(rows.count - 1)] return r.value, r.count"), "\(Int64(rows[rows.count - 2][0]))\t\(Int64(rows[rows.count - 2][2]))")
    }

    func testCorrectionMergeAndErrors() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("H = pekit.histogram() H:record(1000, 10000) H:record_corrected(100e6, 10000) return H:count(), H:percentile(50), H:percentile(99)"),
                       "20000\t1000\t98041855")
        XCTAssertEqual(lua.eval("local g = pekit.histogram{highest = 1e6, digits = 2} g:record(5.9) return g:min(), g:max(), tostring(g)"),
                       "5\t5\t\"histogram: 1 values, p50 5, p99 5, max 5\"")
        XCTAssertEqual(lua.eval("local g = pekit.histogram() g:record(7) return g:merge(H):count()"), "20001")
        XCTAssertEqual(lua.eval("H:record(-1)"), "error: stdin:1: histogram.record: -1 is outside the histogram's range (0 to 3600000000)")
        XCTAssertEqual(lua.eval("pekit.histogram{highest = 1000}:merge(H)"), "error: stdin:1: histogram.merge: the other histogram records values this one cannot hold")
        XCTAssertEqual(lua.eval("H:percentile(100.5)"), "error: stdin:1: histogram.percentile: bad argument #2 (a percentile from 0 to 100 expected)")
        XCTAssertEqual(lua.eval("pekit.histogram{digits = 0}"), "error: stdin:1: pekit.histogram: bad argument #1 (field \"digits\": expected a whole number from 1 to 5, got 0)")
        XCTAssertEqual(lua.eval("pekit.histogram{lowest = 100, highest = 150}"), "error: stdin:1: pekit.histogram: a histogram needs 1 <= lowest and 2 × lowest <= highest (got lowest 100, highest 150)")
        XCTAssertEqual(lua.eval("H.record(42, 1)"), "error: stdin:1: histogram.record: bad argument #1 (pekit.histogram expected, got number)")
        XCTAssertEqual(lua.eval("H:reset() return H:count(), H:max(), H:percentile(99)"), "0\t0\t0")
    }

    /// Counts live in Swift, out of the Lua collector's sight: their bytes are capped, and a
    /// collection lets the unreachable ones go before a new one is refused.
    func testHistogramsThatAreLetGoDoNotCountAgainstTheCap() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        // 16 MB each (5 digits, up to an hour): 100 of them in a loop, each let go.
        XCTAssertEqual(lua.eval("for i = 1, 100 do local h = pekit.histogram{digits = 5} h:record(i) end return 'ok'"), "\"ok\"")
        XCTAssertEqual(lua.eval("KEEP = {} for i = 1, 20 do KEEP[i] = pekit.histogram{digits = 5} end"),
                       "error: stdin:1: pekit.histogram: the live histograms hold 256 MB of counts and this one needs 16384 KB more; the limit is 256 MB (let unused ones go, or :reset() one)")
    }
}
