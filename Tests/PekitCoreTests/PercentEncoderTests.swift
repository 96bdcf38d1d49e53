import XCTest
@testable import PekitCore
final class PercentEncoderTests: XCTestCase {
  func testSeed() {
    XCTAssertEqual(PercentEncoder(allowed: .letters).encode("汉字&ss"), "%E6%B1%89%E5%AD%97%26ss")
  }
}
