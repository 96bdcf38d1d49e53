import Foundation
@testable import PekitHTTP
import XCTest

/// Tables of curl's own unit tests (curl 7.88.1; scripts/curl-unit-fixtures reads them from the
/// C source): `--noproxy`'s matching (unit1614.c, Curl_check_noproxy) and `-E FILE:PASS`'s
/// reading (unit1394.c, parse_cert_parameter), each row as curl's test expects it.
final class CurlUnitTablesTests: XCTestCase {
    private struct Table<Case: Decodable>: Decodable { let commit: String; let cases: [Case] }

    private func table<Case: Decodable>(_ name: String, _: Case.Type) throws -> [Case] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/curl-unit/\(name)", withExtension: "json"))
        let table = try JSONDecoder().decode(Table<Case>.self, from: Data(contentsOf: url))
        XCTAssertEqual(table.commit.count, 40)
        return table.cases
    }

    func testNoProxyListsMatchAsLibcurlMatchesThem() throws {
        struct Case: Decodable { let host: String; let list: String; let match: Bool }
        let cases = try table("noproxy", Case.self)
        XCTAssertEqual(cases.count, 57)
        for c in cases {
            XCTAssertEqual(ProxyChoice.bypasses(c.host, c.list), c.match, "\(c.host) in \(c.list)")
        }
    }

    func testCertificateParameterIsSplitAsCurlSplitsIt() throws {
        struct Case: Decodable { let given: String; let certificate: String; let passphrase: String? }
        let cases = try table("cert-parameter", Case.self)
        XCTAssertEqual(cases.count, 16)
        for c in cases {
            let (certificate, passphrase) = SendOptions.certificateAndPassphrase(c.given)
            XCTAssertEqual(certificate, c.certificate, c.given)
            XCTAssertEqual(passphrase, c.passphrase, c.given)
        }
    }
}
