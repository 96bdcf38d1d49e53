import Foundation
import XCTest
@testable import PekitCore

/// The public suffix list's algorithm on the real list (Debian's publicsuffix, which scripts/test
/// installs): vectors from the list's own test file (publicsuffix.org's test_psl.txt), and the
/// byte-level lookup against the label-by-label one on many hosts.
final class PublicSuffixListTests: XCTestCase {
    func realList() throws -> PublicSuffixList {
        let path = "/usr/share/publicsuffix/public_suffix_list.dat"
        guard let bytes = FileManager.default.contents(atPath: path) else { throw XCTSkip("\(path) is missing (scripts/test installs publicsuffix)") }
        return PublicSuffixList(text: String(decoding: bytes, as: UTF8.self))
    }

    func testRegistrableDomainsAsTheListsTestsSayThem() throws {
        let list = try realList()
        let vectors: [(String, String?)] = [
            ("com", nil), ("example.com", "example.com"), ("b.example.com", "example.com"), ("a.b.example.com", "example.com"),
            ("uk.com", nil), ("example.uk.com", "example.uk.com"), ("b.example.uk.com", "example.uk.com"),
            ("test.ac", "test.ac"), ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
            ("jp", nil), ("test.jp", "test.jp"), ("www.test.jp", "test.jp"), ("ac.jp", nil), ("test.ac.jp", "test.ac.jp"),
            ("kyoto.jp", nil), ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", nil), ("b.ide.kyoto.jp", "b.ide.kyoto.jp"),
            ("c.kobe.jp", nil), ("b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"), ("www.city.kobe.jp", "city.kobe.jp"),
            ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("www.ck", "www.ck"), ("www.www.ck", "www.ck"),
            ("us", nil), ("test.us", "test.us"), ("ak.us", nil), ("test.ak.us", "test.ak.us"), ("k12.ak.us", nil), ("test.k12.ak.us", "test.k12.ak.us"),
            ("www.example.COM", "example.com"),
        ]
        for (host, expected) in vectors {
            XCTAssertEqual(list.registrableDomain(host), expected, host)
        }
    }

    func testTheByteLookupIsTheLabelLookup() throws {
        let list = try realList()
        let tails = ["com", "co.uk", "uk", "kobe.jp", "city.kobe.jp", "ck", "www.ck", "github.io", "s3.amazonaws.com", "blogspot.com", "nope", "", "appspot.com"]
        for tail in tails {
            for head in ["", "a.", "b.a.", "www.", "x.y.z."] {
                let host = head + tail
                XCTAssertEqual(list.publicSuffix(of: host), list.publicSuffix(ofLabels: host.lowercased()), host)
            }
        }
        // isPublicSuffix looks a lower-case ASCII domain up in its own bytes and lower-cases
        // anything else first (Unicode's rules for non-ASCII), agreeing with publicSuffix(of:).
        for domain in ["com", "CO.UK", "co.uk", "github.io", "GitHub.IO", "example.com", "中国", "公司.CN", "ÄÖ.de", "kobe.jp", "City.Kobe.JP", "a..com", ".", ""] {
            let lower = domain.lowercased()
            XCTAssertEqual(list.isPublicSuffix(domain), !lower.isEmpty && list.publicSuffix(ofLabels: lower) == lower, domain)
        }
    }

    /// The copy built into PekitCore holds the installed list's rules, in its order (run
    /// scripts/public-suffix-list after publicsuffix is upgraded), and answers as it does.
    func testTheBuiltInCopyIsTheInstalledList() throws {
        let path = "/usr/share/publicsuffix/public_suffix_list.dat"
        guard let bytes = FileManager.default.contents(atPath: path) else { throw XCTSkip("\(path) is missing (scripts/test installs publicsuffix)") }
        let installed = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first.map(String.init) }
            .filter { !$0.hasPrefix("//") }
        XCTAssertEqual(PublicSuffixList.builtInRules.split(separator: "\n").map(String.init), installed)
        let list = try realList()
        XCTAssertEqual(PublicSuffixList.builtIn.count, list.count)
        for host in ["com", "example.com", "a.b.example.co.uk", "www.ck", "city.kawasaki.jp", "x.github.io", "食狮.公司.cn"] {
            XCTAssertEqual(PublicSuffixList.builtIn.registrableDomain(host), list.registrableDomain(host), host)
        }
    }

    /// Where no list is installed and none is named, the built-in copy serves; a list that is
    /// named must be read (no silent fallback for a typo).
    func testTheBuiltInCopyServesWhereNoListIsInstalled() throws {
        let list = try PublicSuffixList.load(environment: [:], installed: "/nonexistent/public_suffix_list.dat")
        XCTAssertEqual(list.count, PublicSuffixList.builtIn.count)
        XCTAssertEqual(list.registrableDomain("a.b.example.co.uk"), "example.co.uk")
        XCTAssertThrowsError(try PublicSuffixList.load(environment: ["PEKIT_PUBLIC_SUFFIX_LIST": "/nonexistent/list.dat"], installed: "/nonexistent/x")) { error in
            XCTAssertEqual("\(error)", "cannot read the public suffix list at /nonexistent/list.dat: No such file or directory (name a readable list with PEKIT_PUBLIC_SUFFIX_LIST)")
        }
    }
}
