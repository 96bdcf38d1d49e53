import Foundation
import CDecodeShim
@testable import PekitHTTP
import XCTest

/// The latency recorder held to the `hdrhistogram` PyPI package (scripts/histogram-fixtures
/// records the same values there): count, min, max, mean, standard deviation, percentiles and
/// the percentile distribution, for several layouts, HdrHistogram's own coordinated-omission
/// example, and merges.
final class LatencyHistogramTests: XCTestCase {
    private struct File: Decodable { let source: String; let cases: [Case] }
    private struct Case: Decodable {
        let name: String
        let lowest: Int64?, highest: Int64?, digits: Int?
        let record: [[Int64]]?, corrected: [[Int64]]?
        let merge: [String]?
        let expect: Expect
    }
    private struct Expect: Decodable {
        let count: Int64, min: Int64, max: Int64
        let mean: Double, stddev: Double
        let percentiles: [[Double]]
        let distribution: [[Double]]
        let v2: String?
    }

    private func cases() throws -> [Case] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/histogram/cases", withExtension: "json"))
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
    }

    private func filled(_ c: Case) throws -> LatencyHistogram {
        var h = try LatencyHistogram(lowest: try XCTUnwrap(c.lowest), highest: try XCTUnwrap(c.highest), digits: try XCTUnwrap(c.digits))
        for pair in c.record ?? [] { try h.record(pair[0], times: pair[1]) }
        for pair in c.corrected ?? [] { try h.recordCorrected(pair[0], expectedInterval: pair[1]) }
        return h
    }

    /// The case's histogram: its values recorded, or (a merge) the first case's with the second's added.
    private func histogram(_ c: Case, _ all: [Case]) throws -> LatencyHistogram {
        guard let merge = c.merge else { return try filled(c) }
        var h = try filled(try XCTUnwrap(all.first { $0.name == merge[0] }))
        try h.merge(try filled(try XCTUnwrap(all.first { $0.name == merge[1] })))
        return h
    }

    func testEveryCaseReadsAsTheHdrhistogramPackageReadsIt() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 11)
        for c in all {
            let h = try histogram(c, all)
            let e = c.expect
            XCTAssertEqual(h.count, e.count, c.name)
            XCTAssertEqual(h.min, e.min, c.name)
            XCTAssertEqual(h.max, e.max, c.name)
            XCTAssertEqual(h.mean, e.mean, accuracy: Swift.max(1e-9 * e.mean, 1e-9), c.name)
            XCTAssertEqual(h.standardDeviation, e.stddev, accuracy: Swift.max(1e-9 * e.stddev, 1e-9), c.name)
            for pair in e.percentiles {
                XCTAssertEqual(h.value(atPercentile: pair[0]), Int64(pair[1]), "\(c.name): p\(pair[0])")
            }
            let rows = h.percentileDistribution(ticksPerHalfDistance: 5)
            XCTAssertEqual(rows.count, e.distribution.count, c.name)
            for (row, expected) in zip(rows, e.distribution) {
                XCTAssertEqual(row.value, Int64(expected[0]), c.name)
                XCTAssertEqual(row.percentile, expected[1], accuracy: 1e-12, c.name)
                XCTAssertEqual(row.totalCount, Int64(expected[2]), c.name)
            }
        }
    }

    /// HdrHistogram's V2 encoding, the bytes its log carries (before their zlib stream), as the
    /// package writes them; and the compressed form inflates to them (libz, as any reader does).
    func testTheEncodingIsHdrHistogramsV2ByteForByte() throws {
        var checked = 0
        let all = try cases()
        for c in all {
            guard let hex = c.expect.v2 else { continue }
            let h = try histogram(c, all)
            let encoded = h.encoded()
            XCTAssertEqual(encoded.map { String(format: "%02x", $0) }.joined(), hex, c.name)
            let compressed = h.compressedEncoding()
            XCTAssertEqual(Array(compressed.prefix(4)), [0x1C, 0x84, 0x93, 0x14], c.name)
            let length = compressed[4..<8].reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual(length, compressed.count - 8, c.name)
            var inflated: [UInt8] = []
            let decoders = try BodyDecoders(codings: [Int32(PEKIT_DECODE_DEFLATE)])
            _ = try compressed.dropFirst(8).withUnsafeBytes { try decoders.write($0) { inflated += $0; return true } }
            XCTAssertEqual(inflated, encoded, c.name)
            checked += 1
        }
        XCTAssertEqual(checked, 10)
    }

    /// HdrHistogram's README: 10,000 answers of 1 ms and one 100 s stall, at one request per 10 ms.
    func testTheStallReadsAsHdrHistogramsExampleSaysOnceCorrected() throws {
        var h = try LatencyHistogram()
        try h.record(1000, times: 10000)
        try h.recordCorrected(100_000_000, expectedInterval: 10_000)
        XCTAssertEqual(h.value(atPercentile: 50), 1000)
        for (p, seconds) in [(75.0, 50.0), (90, 80), (99, 98), (99.999, 100)] {
            XCTAssertEqual(Double(h.value(atPercentile: p)) / 1e6, seconds, accuracy: seconds * 0.001, "p\(p)")
        }
    }

    func testBadLayoutsAndValuesAreRefusedAndRecordNothing() throws {
        XCTAssertThrowsError(try LatencyHistogram(lowest: 0)) { XCTAssertEqual("\($0)", "a histogram needs 1 <= lowest and 2 × lowest <= highest (got lowest 0, highest 3600000000)") }
        XCTAssertThrowsError(try LatencyHistogram(lowest: 10, highest: 15))
        XCTAssertThrowsError(try LatencyHistogram(digits: 6)) { XCTAssertEqual("\($0)", "a histogram keeps 1 to 5 significant digits (got 6)") }
        var h = try LatencyHistogram(highest: 1000)
        XCTAssertThrowsError(try h.record(1001)) { XCTAssertEqual("\($0)", "1001 is outside the histogram's range (0 to 1000)") }
        XCTAssertThrowsError(try h.record(-1))
        XCTAssertEqual(h.count, 0)
        var wide = try LatencyHistogram()
        try wide.record(5000)
        XCTAssertThrowsError(try h.merge(wide)) { XCTAssertEqual($0 as? LatencyHistogram.Failure, .differentLayout) }
        XCTAssertEqual(h.count, 0)
    }
}
