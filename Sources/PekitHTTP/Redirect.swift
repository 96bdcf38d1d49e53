import PekitCore

/// The request that follows a redirect, by RFC 9110 §15.4 and what browsers, curl and requests do.
enum Redirect {
    /// 301, 302, 303, 307 and 308 (asked once per response, so a switch rather than a set).
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }

    /// The Location a redirect follows: none when the field is missing or blank, as curl takes a
    /// blank `Location:` for none (its test 54) rather than following it to the same URL again.
    static func location(_ value: ByteString?) -> ByteString? {
        guard let value, value.bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        return value
    }

    /// Whether a response of `status` with these header fields is a redirect a send that
    /// follows redirects goes on from: a redirect status and a Location that is not blank.
    static func follows(status: Int, headers: [PekitResponse.Field]) -> Bool {
        isRedirect(status) && location(PekitResponse.first("Location", in: headers)) != nil
    }

    /// Bytes a Location may carry as they are; the rest (spaces, controls, non-ASCII, which
    /// servers do send) is percent-encoded, in lower-case hex as curl's URL API writes it
    /// (`ü` is `%c3%bc`), so the URL is usable; escapes already there stay as written (`%d8`).
    private static let locationEncoder = PercentEncoder(
        allowed: AllowedSet(bytes: (UInt8(0x21)...0x7E).filter { !Array("\"<>\\^`{|}".utf8).contains($0) }),
        hexCase: .lower, keepsValidEscapes: true)

    /// The next request after `response` to `request`.
    /// - 303 turns any method but HEAD into GET; 301 and 302 turn POST into GET (what every client
    ///   does, as §15.4.2/3 allow); a method that changes drops the body and its headers.
    ///   307 and 308 keep method and body.
    /// - Host follows the new URL (a hand-written one stays on the same host, as in curl); Authorization, Proxy-Authorization and a hand-written Cookie
    ///   are dropped when the origin changes (the jar decides cookies per URL anyway), unless
    ///   `trusted` (curl's --location-trusted) keeps them.
    /// - A Location without a fragment keeps the fragment of the request's URL (§10.2.2).
    /// - Throws: `HTTPError.badRedirect` for a Location that is not an http(s) URL.
    static func next(after request: PekitRequest, status: Int, location: ByteString, trusted: Bool = false, keepingPost: Set<Int> = []) throws -> PekitRequest {
        // A space in the query is sent as '+', one before it as %20, as curl's URL API encodes a
        // Location (curl test 40); the rest that a URL cannot hold as UTF-8 escapes.
        var bytes = location.bytes
        if let question = bytes.firstIndex(of: 0x3F) {
            let end = bytes[question...].firstIndex(of: 0x23) ?? bytes.endIndex
            for i in question..<end where bytes[i] == 0x20 { bytes[i] = 0x2B }
        }
        var encoded = String(decoding: bytes.withUnsafeBufferPointer { locationEncoder.encode(bytes: $0) }, as: UTF8.self)
        if request.readsURLAsCurl {
            // One to three slashes after the scheme, as curl reads a Location (its test 1141).
            do { encoded = try CurlURL.read(encoded, keepingDotSegments: true) } catch {
                throw HTTPError.badRedirect(url: request.url, location: location.description, reason: "\(error)")
            }
        }
        var url = URLResolution.resolve(encoded, against: request.url, keepingDotSegments: request.keepsDotSegments)
        let target: RequestURL
        do { target = try RequestURL(url, readingHostAsCurl: request.readsURLAsCurl) } catch {
            throw HTTPError.badRedirect(url: request.url, location: location.description, reason: "\(error)")
        }
        guard target.scheme == "http" || target.scheme == "https" else {
            throw HTTPError.badRedirect(url: request.url, location: location.description, reason: "only http and https are followed")
        }
        let source = try? request.requestURL()
        if target.fragment == nil, let fragment = source?.fragment { url += "#" + fragment }

        var next = request
        // The new URL with its host as the jar and Host read it (a Location may name 例子.中国);
        // a raw request target was for the first request only.
        let wire = RequestBuilder.wire(url, parsed: target)
        next.url = wire.text
        next.parsedURL = wire.url
        next.requestTarget = nil
        let kept = request.method == "POST" && keepingPost.contains(status)
        let toGet = !kept && ((status == 303 && request.method != "HEAD") || ((status == 301 || status == 302) && request.method == "POST"))
        if toGet {
            next.method = "GET"
            next.body = .empty
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding", "Expect"] { next.headers.remove(name) }
        }
        if let field = request.headers["Host"] {
            // A Host the user wrote (not the URL's own) stays while the chain stays on the same
            // host, as curl's -L keeps it (the IP-direct login: an address in the URL, the name
            // in Host); pekit's own follows the new URL.
            let written = source.map { field != $0.authority } ?? false
            if !written || source?.host.lowercased() != target.host.lowercased() { try? next.headers.set("Host", target.authority) }
        }
        // The URL's own user and password stay with a redirect on the same origin (curl resolves
        // a relative Location in a URL that keeps them), and a Location's replace them.
        if let source, !sameOrigin(source, target) { next.urlCredentials = nil }
        if let source, !trusted, !sameOrigin(source, target) {
            // Credentials for the first origin (a proxy's too, as python-requests drops it).
            next.headers.remove("Authorization")
            next.headers.remove("Proxy-Authorization")
            next.headers.remove("Cookie")
        }
        if let userinfo = target.userinfo {
            // Credentials in the Location are the next request's Basic authentication, in place of
            // any before (curl's test 899); the URL sent keeps none.
            let (user, password) = RequestURL.credentials(fromUserinfo: userinfo)
            try? next.headers.set("Authorization", RequestBuilder.basicAuthorization(user: user, password: password))
            next.basicCredentials = [user, password]
            next.urlCredentials = .init(userinfo: userinfo)
            var bare = next.parsedURL ?? target
            bare.userinfo = nil
            let rewired = RequestBuilder.wire(bare.description, parsed: bare)
            next.url = rewired.text
            next.parsedURL = rewired.url
        }
        return next
    }

    /// `-e 'URL;auto'`: the redirect's request carries the URL it came from as its Referer, with
    /// no user, password or fragment (curl's Curl_follow), in curl's place for the field: after
    /// the fields libcurl writes before it (Host to Accept-Encoding), before the caller's own.
    static func setReferer(_ request: inout PekitRequest, from url: String) throws {
        var referer = url
        if let hash = referer.firstIndex(of: "#") { referer = String(referer[..<hash]) }
        if var parsed = try? RequestURL(referer), parsed.userinfo != nil {
            parsed.userinfo = nil
            referer = parsed.description
        }
        if request.headers.contains("Referer") { try request.headers.set("Referer", referer); return }
        let before = ["Host", "Authorization", "Range", "User-Agent", "Accept", "TE", "Accept-Encoding"]
        var place = 0
        for (i, field) in request.headers.fields.enumerated() where before.contains(where: { PekitHeaders.sameName($0, field.name) }) { place = i + 1 }
        try request.headers.insert("Referer", referer, at: place)
    }

    /// Same scheme, host and port; or http to https on the same host with default ports, which
    /// requests also treats as safe for credentials.
    static func sameOrigin(_ a: RequestURL, _ b: RequestURL) -> Bool {
        guard a.host == b.host else { return false }
        if a.scheme == b.scheme { return a.effectivePort == b.effectivePort }
        return a.scheme == "http" && b.scheme == "https" && a.effectivePort == 80 && b.effectivePort == 443
    }
}
