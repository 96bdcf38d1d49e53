import XCTest
@testable import PekitCore

/// `ByteCopy.copy` (the query writer's short copies) writes exactly the source's bytes and
/// nothing around them: every length from 0 to 80, at every offset of source and destination
/// within a word, into a guarded buffer whose other bytes must stay as they were.
final class ByteCopyTests: XCTestCase {
    func testEveryLengthAndOffsetCopiesExactlyTheBytes() {
        var rng = SystemRandomNumberGenerator()
        let source = (0..<128).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let guardByte: UInt8 = 0xA5
        for count in 0...80 {
            for from in 0..<8 {
                for to in 0..<8 {
                    var destination = [UInt8](repeating: guardByte, count: 112)
                    source.withUnsafeBufferPointer { src in
                        destination.withUnsafeMutableBufferPointer { dst in
                            ByteCopy.copy(from: src.baseAddress! + from, count: count, to: dst.baseAddress! + 8 + to)
                        }
                    }
                    var expected = [UInt8](repeating: guardByte, count: 112)
                    expected.replaceSubrange((8 + to)..<(8 + to + count), with: source[from..<(from + count)])
                    XCTAssertEqual(destination, expected, "count \(count), source offset \(from), destination offset \(to)")
                }
            }
        }
    }
}
