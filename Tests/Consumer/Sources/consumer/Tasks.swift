// The first five tasks of issue 45, as a Swift 6 program would do them with pekit (main.swift
// runs them, then the sixth, of issue 76, in top-level code).
import Foundation
import PekitCore
import PekitCrypto
import PekitCryptoFoundation
import PekitFoundation
import PekitHTTP

struct Search: Codable, Equatable, Sendable {
    var q: String
    var tags: [String]
    var page: Int
    var draft: Bool?
}

enum Tasks {
    static func run(base: String, directory: String) async throws {
        // 1. Parameters encoded as AFNetworking does, read as PHP and qs do.
        let search = Search(q: "café & co", tags: ["a", "b"], page: 2, draft: nil)
        let query = try Policy.afnetworking.queryString(encoding: search)
        print("1 query:", query)
        print("1 php:", try QueryServer.php(PHPParser()).read(query, as: Search.self) == search)
        print("1 qs:", try QueryServer.qs(QSParser()).read(query))

        // 2. A filtered jar, saved and loaded again.
        let jar = CookieJar(publicSuffixes: try PublicSuffixList.load(environment: [:]), now: { Date(timeIntervalSince1970: 1_800_000_000) })
        jar.filters = [CookieFilter(name: "no trackers", accept: { cookie, _ in !cookie.name.hasPrefix("_ga") })]
        let site = try RequestURL("https://www.example.com/")
        for field in ["sid=1; Path=/; Secure; HttpOnly", "_ga=GA1.2; Path=/", "wide=1; Domain=com"] {
            print("2 receive:", CookieJar.line(try jar.receive(field, from: site)))
        }
        let file = directory + "/cookies.txt"
        try jar.save(to: file)
        let loaded = CookieJar(publicSuffixes: nil, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        try loaded.load(from: file)
        print("2 loaded:", try loaded.header(for: site) ?? "none")

        // 3. A request built, shown as curl, and sent (awaited) with the jar.
        var builder = RequestBuilder(url: base + "/cookies/set")
        builder.params = ["token": "x y"]
        let request = try builder.build()
        let host = String(base.dropFirst("http://".count))
        print("3 curl:", try request.curl().replacingOccurrences(of: base, with: "BASE").replacingOccurrences(of: host, with: "HOST"))
        let client = try PekitClient()
        let shared = CookieJar(publicSuffixes: nil, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        var options = SendOptions()
        options.jar = shared
        options.timeout = .seconds(30)
        let sendOptions = options
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<5 { group.addTask { try await client.send(request, options: sendOptions).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        print("3 sent:", statuses, "jar:", shared.all.map(\.pair))

        // 4. SigV4 (botocore's first vector) and JWT.
        var iam = RequestBuilder(url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08")
        iam.accept = nil
        iam.headers = [.init("Accept-Language", "en;q=1")]
        var signed = try iam.build()
        let signer = AWSSigV4(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "iam")
        try signer.sign(&signed, at: Date(timeIntervalSince1970: 1_796_042_096))
        print("4 sigv4:", signed.headers.values("Authorization").joined())
        struct Claims: Codable, Equatable { var sub: String; var exp: Int }
        var verifying = JWT.Options(now: Date(timeIntervalSince1970: 1_800_000_000))
        verifying.leeway = .seconds(30)
        let token = try JWT.encode(claims: Claims(sub: "u1", exp: 1_900_000_000), key: Array("secret".utf8), algorithm: .hs256)
        print("4 jwt:", try JWT.verify(token, key: Array("secret".utf8), options: verifying, as: Claims.self).sub)

        // 5. URLs as browsers parse them, and as Foundation takes them.
        let url = try WHATWGURL("http://0x7f.1/a/../b?x=1 2")
        print("5 url:", url.href, URL(url)?.host ?? "none")
        do { _ = try WHATWGURL("http://exa mple.com/") } catch { print("5 refused:", error.localizedDescription) }
    }
}
