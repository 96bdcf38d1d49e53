import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitFoundation
import PekitHTTPFoundation
import PekitCryptoFoundation
import PekitHTTP

/// Times as Swift code has them (issue 45): spans are `Duration`, instants `Date`; each is the
/// value the engine keeps in seconds.
final class TimeTests: XCTestCase {
    func testSpansAreDurations() {
        var options = SendOptions()
        XCTAssertEqual(options.connectTimeout, .seconds(30), "curl's default is 300 s; pekit's 30 s")
        XCTAssertNil(options.timeout)
        options.timeout = .milliseconds(1500)
        XCTAssertEqual(options.timeout, .milliseconds(1500))
        XCTAssertEqual(options.timeoutSeconds, 1.5, "what libcurl is given")
        var retry = SendRetryPolicy()
        XCTAssertEqual([retry.baseDelay, retry.maxDelay], [.milliseconds(500), .seconds(30)])
        retry.maxTime = .seconds(90)
        XCTAssertEqual(retry.maxTimeSeconds, 90)
        XCTAssertEqual(SendRetryPolicy.curl(retries: 2).maxDelay, .seconds(600))
        XCTAssertEqual(try RateLimiter("4/s").interval, .milliseconds(250))
    }

    func testInstantsAreDates() throws {
        let jar = CookieJar(publicSuffixes: nil, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        XCTAssertEqual(jar.now, Date(timeIntervalSince1970: 1_800_000_000))
        _ = try jar.receive("a=1; Max-Age=60", from: try RequestURL("http://h/"))
        let cookie = try XCTUnwrap(jar.all.first)
        XCTAssertEqual(cookie.expiresDate, Date(timeIntervalSince1970: 1_800_000_060))
        XCTAssertEqual(cookie.creationDate, Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertEqual(JWT.Options(now: Date(timeIntervalSince1970: 5)).now, 5)

        // Signed at a Date: the same headers as at its seconds (botocore's first vector's time).
        var request = try RequestBuilder(url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08").build()
        var same = request
        let signer = AWSSigV4(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "iam")
        try signer.sign(&request, at: Date(timeIntervalSince1970: 1_796_042_096))
        try signer.sign(&same, at: 1_796_042_096)
        XCTAssertEqual(request.headers.values("Authorization"), same.headers.values("Authorization"))
        XCTAssertEqual(request.headers.values("X-Amz-Date"), ["20261130T123456Z"])
    }
}
