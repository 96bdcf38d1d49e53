/// The header fields of a built request, in the order curl 7.88 writes them, so that servers and
/// firewalls that read the order see what they see from curl. Checked against curl itself by
/// `RequestCommandTests.testCurlFlagSetsSendCurlsBytes`.
extension RequestBuilder {
    /// curl sends `Expect: 100-continue` with a body larger than this (libcurl's
    /// EXPECT_100_THRESHOLD), and waits for the server's 100 before the body.
    public static let expectThreshold = 1 << 20

    /// - `Host` (the caller's, written as `Host`, or the authority), `Authorization` (Basic),
    ///   `User-Agent`, `Accept`, `Accept-Encoding`, `Referer`, `Cookie` (the jar's, then the
    ///   hand-written ones): each left out when the caller gives a field of that name;
    /// - the policy's defaults (`Accept-Language`, `headers`), unless given;
    /// - the caller's fields in order, repeats kept;
    /// - `Content-Length` (unless chunked), `Content-Type`, `Expect` over 1 MiB, unless given.
    /// - Throws: `RequestError` for an invalid name or value, and for framings that cannot go
    ///   together (RFC 9112 §6.1–6.3): `Content-Length` with `Transfer-Encoding`, a
    ///   `Transfer-Encoding` that does not end in `chunked`, a `Content-Length` that is not the
    ///   body's length.
    func fields(authority: String, credentials: (user: String, password: String)?, jarCookies: [UInt8]?,
                body: PekitRequest.Body, bodyType: String?) throws -> PekitHeaders {
        // Every caller's field checked once, before any is placed (the first bad one is reported).
        for header in headers { try header.validate() }
        // A caller's field: its bytes where they are not UTF-8, as given.
        func add(_ header: Header, as name: String, to fields: inout PekitHeaders) throws {
            guard let value = header.value else { return }
            try fields.addChecked(name, value, raw: header.rawValue, spacing: header.spacing)
        }
        func given(_ name: String) -> Bool { headers.contains { PekitHeaders.sameName($0.name, name) } }
        // A policy's default of one of curl's own fields (a backend's User-Agent or Accept) takes
        // that field's place; its other defaults come after the cookies.
        func policyValue(_ name: String) -> String? { policy.requestHeaders.first { PekitHeaders.sameName($0.name, name) }?.value }
        let placed = ["User-Agent", "Accept", "Accept-Encoding", "Referer"]
        var fields = PekitHeaders()
        fields.reserveCapacity(8 + headers.count)
        // The authority of a parsed URL holds no control byte; the User-Agent is pekit's own.
        if let host = headers.first(where: { PekitHeaders.sameName($0.name, "Host") }) {
            try add(host, as: "Host", to: &fields)
        } else {
            fields.addValid("Host", authority)
        }
        if let token = bearerToken, !given("Authorization") {
            try fields.add("Authorization", "Bearer " + token)
        } else if let (user, password) = credentials, !given("Authorization") {
            fields.addValid("Authorization", Self.basicAuthorization(user: user, password: password))
        }
        if let range, !given("Range") { try fields.add("Range", "bytes=" + range) }
        if let contentRange, !given("Content-Range") { try fields.add("Content-Range", "bytes " + contentRange) }
        for (name, value) in zip(placed, [userAgent, accept, acceptEncoding, referer]) where !given(name) {
            guard let value = policyValue(name) ?? value, !value.isEmpty else { continue }
            if name == "User-Agent" && value == Self.userAgent { fields.addValid(name, value) } else { try fields.add(name, value) }
        }
        if !given("Cookie"), let value = Self.cookieField(jar: jarCookies, own: cookie) { try fields.add("Cookie", bytes: value) }
        if let (name, value) = timeCondition, !given(name) { try fields.add(name, value) }
        if let rule = policy.acceptLanguage, !given("Accept-Language") {
            try fields.add("Accept-Language", rule.value(environment: environment))
        }
        for (name, value) in policy.requestHeaders where !given(name) && !placed.contains(where: { PekitHeaders.sameName($0, name) }) {
            try fields.add(name, value)
        }
        for header in headers where !PekitHeaders.sameName(header.name, "Host") {
            try add(header, as: header.name, to: &fields)
        }

        let chunked = try Self.isChunked(fields)
        let length = try BodyStream.length(of: body.segments)
        if let written = fields["Content-Length"] {
            if chunked {
                throw RequestError.invalid("Content-Length and Transfer-Encoding cannot go together (RFC 9112 §6.2): leave one out")
            }
            guard written.trimmingOWS == String(length) else {
                throw RequestError.invalid("Content-Length: \(written) is not the body's length, \(length) bytes: leave it out and pekit writes it")
            }
        } else if body != .empty && !chunked {
            fields.addValid("Content-Length", String(length))
        }
        if let bodyType, !given("Content-Type") { try fields.add("Content-Type", bodyType) }
        if length > Self.expectThreshold || (uploadsAsCurl && (length > 0 || chunked)), !given("Expect") { fields.addValid("Expect", "100-continue") }
        return fields
    }

    /// Whether the fields frame the body in chunks: a `Transfer-Encoding` whose last coding is
    /// `chunked`.
    /// - Throws: for a `Transfer-Encoding` that does not end in `chunked`: a server could not
    ///   tell where such a request ends (RFC 9112 §6.3), and curl would add `Content-Length` to it.
    static func isChunked(_ fields: PekitHeaders) throws -> Bool {
        let codings = fields.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS.lowercased() }.filter { !$0.isEmpty }
        guard let last = codings.last else { return false }
        guard last == "chunked" else {
            throw RequestError.invalid("Transfer-Encoding: \(fields.values("Transfer-Encoding").joined(separator: ", ")) does not end in chunked, so a server cannot tell where the body ends (RFC 9112 §6.3)")
        }
        return true
    }
}
