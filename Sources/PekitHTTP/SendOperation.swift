import PekitCore

/// One `send` as a state machine: its tries (retries) and each try's hops (redirects). It says
/// what it needs next (a request on the wire, a wait, or nothing: it is done), so that an
/// `HTTPEngine` can run many at once on one thread. Every hop goes through the jar (and its
/// filters), the signer, the rate limiter and the HAR record, as one request does.
final class SendOperation {
    enum Step {
        /// Put this request on the wire; `willFollow` tells a response whose body is not the caller's.
        case transfer(PekitRequest, willFollow: Exchange.WillFollow)
        /// Call `next` again at this time (Unix seconds): a rate limit or a retry's backoff.
        case wait(until: Double)
        case done(Result<PekitResponse, Error>)
    }

    let request: PekitRequest
    let options: SendOptions
    /// The options' part of the choice of sender (`Transport`), read once: they do not change.
    let transportReason: String?, proxySet: Bool
    private let retry: SendRetryPolicy?
    private let origin: RequestURL?
    private var firstStarted: Double?
    /// When the current try's first hop went out (monotonic): `timeout` bounds the whole try,
    /// every redirect hop included, as `curl -m` bounds a transfer that follows with -L.
    private(set) var tryBegun: Double?
    private var attempt = 1
    private var current: PekitRequest
    private var hops: [PekitResponse.Hop] = []
    /// The connections the current try's hops opened so far, the bytes of their request heads,
    /// and the time of the redirects followed.
    private var connections = 0, requestHeadBytes = 0, redirectSeconds = 0.0
    /// With `keepsHeads`: the header blocks of the responses before the current one in this try
    /// (redirects followed), as curl writes them all with -i and -D.
    private var earlierHeads: [UInt8] = []
    /// The rate limiter's slot for the current hop is booked (the wait for it is over or running).
    private var booked = false
    /// With `explainsCookies`: the current hop's lines for the cookies sent and held back.
    private var hopCookieLines: [String] = []
    /// With `explainsCookies`: the cookies the jar sent on the current hop, in the header's order.
    private var hopSentCookies: [Cookie] = []
    /// `--digest` and `--anyauth`: the round as a try starts it, and as it stands.
    private let roundAtStart: ChallengeRound?
    private var round: ChallengeRound?
    /// The request whose body the first hop of a `--digest` round held back, for the answer.
    private var heldBack: PekitRequest?
    /// `netrc`: the credentials as curl keeps them across the hops, read from the file per host.
    private var netrc: NetrcCredentials?
    /// The current hop's credentials came from the `.netrc` for its host: a challenge round's
    /// answer goes there too, wherever it is.
    private var hopHasNetrcCredentials = false
    /// `--hsts`: the cache read at the start, written at the end.
    private let hsts: HSTSCache?
    /// What went wrong setting the first hop up (a `.netrc` the reader stops on): the send's failure.
    private var setupError: Error?

    init(_ request: consuming PekitRequest, options given: consuming SendOptions) {
        // The jar and signer the request was built with, where the options name none: the one
        // place a built request's cookie setup reaches a send (issue 76).
        let options = given.completed(by: request)
        // The credentials of --digest and --anyauth wait for a challenge: out of the request.
        var request = request
        netrc = NetrcCredentials(request, options)
        if netrc != nil {
            do { _ = try Self.applyNetrc(&netrc!, to: &request, allowed: true, writing: true) } catch { setupError = error }
        }
        hsts = options.hstsFile.map { HSTSCache(path: $0) }
        roundAtStart = ChallengeRound(&request, scheme: options.authScheme, hash: options.authHash)
        round = roundAtStart
        self.request = request
        transportReason = Transport.reason(options)
        proxySet = options.proxy != nil
        self.options = options
        retry = options.retry.flatMap { $0.applies(to: request.method.rawValue) ? $0 : nil }
        origin = options.sign == nil ? nil : try? request.requestURL()
        current = request
    }

    /// The current hop's URL: the parse the builder or the redirect carried, or one made now and
    /// kept (for a request made by hand), for the jar, the limiter, the signer and the route.
    private func hopURL() throws -> RequestURL {
        if let parsed = current.parsedURL { return parsed }
        let url: RequestURL
        do { url = try RequestURL(current.url) } catch { throw RequestError.invalidURL("\(error)") }
        current.parsedURL = url
        return url
    }

    /// The cookie context of this hop: its own method (a 303 makes a POST a GET), for a site
    /// judged from the site for cookies.
    private var hopContext: CookieJar.RequestContext {
        var context = options.cookieContext
        context.method = current.method.rawValue
        return context
    }

    private var lastTry: Bool { attempt >= (retry?.attempts ?? 1) }

    /// What to do now: at the start, after a wait, or after a redirect.
    func next(now: Double) -> Step {
        if firstStarted == nil { firstStarted = now }
        do {
            if let setupError { throw setupError }
            // A host the HSTS cache lists is reached over https://, whatever the URL says.
            if let hsts, let upgraded = hsts.upgrade(try hopURL()) {
                let wire = RequestBuilder.wire(upgraded.description, parsed: upgraded)
                current.url = wire.text
                current.parsedURL = wire.url
            }
            // A URL the builder did not check is parsed now, so that a bad one fails here with
            // the parser's reason rather than curl's.
            _ = try hopURL()
            if let rate = options.rate, !booked {
                booked = true
                let wait = rate.reserve(try hopURL().host, now: now)
                if wait > 0 { return .wait(until: now + wait) }
            }
            booked = false
            let cookiesPerHop = options.cookieHeaderFromJar && (options.jar != nil || options.ownCookie != nil)
            if cookiesPerHop || options.sign != nil {
                // Changed as a whole or not at all: current is untouched if the jar or the signer throws.
                var hop = current
                if cookiesPerHop {
                    // The jar's cookies for this hop's URL, then the caller's own pairs, which go
                    // on every hop wherever it leads, as curl's -b NAME=VALUE (its test 2015).
                    var fromJar: [UInt8]?
                    if let jar = options.jar {
                        let context = hopContext
                        if options.explainsCookies {
                            let verdicts = try jar.explainRelevant(try hopURL(), context: context)
                            hopCookieLines = verdicts.map(CookieJar.line)
                            hopSentCookies = CookieJar.headerOrder(verdicts.filter(\.sent).map(\.cookie))
                        }
                        fromJar = try jar.headerBytes(for: try hopURL(), context: context)
                    }
                    if let cookie = RequestBuilder.cookieField(jar: fromJar, own: options.ownCookie) {
                        try hop.headers.set("Cookie", bytes: cookie)
                    } else {
                        hop.headers.remove("Cookie")
                    }
                }
                // Signed again on every hop (a fresh time and nonce; the URL may have changed).
                if let sign = options.sign {
                    if let origin, Redirect.sameOrigin(origin, try hopURL()) {
                        try sign(&hop)
                    } else {
                        for name in SendOptions.signatureHeaders { hop.headers.remove(name) }
                    }
                }
                current = hop
            }
            if var round {
                if !round.answered {
                    // The first hop of the round: without the credentials (and with --digest
                    // without its body, which the answer carries).
                    let first = round.firstHop(current)
                    if first.body != current.body || first.headers != current.headers { heldBack = current; current = first }
                } else if let origin = try? request.requestURL(), try options.trustsRedirects || hopHasNetrcCredentials || Redirect.sameOrigin(origin, hopURL()) {
                    // Answered: the scheme goes on to the hops it may go to, as curl sends it.
                    current = try round.authorized(current)
                }
                self.round = round
            }
            if tryBegun == nil { tryBegun = UnixTime.monotonic() }
            if let total = options.timeoutSeconds, total.isFinite, total > 0, let begun = tryBegun, UnixTime.monotonic() - begun >= total {
                throw timedOut(received: 0)
            }
            let canFollow = options.followRedirects
            // A response a retry will replace has its body dropped; one the retry policy leaves
            // (the last try, a Retry-After past --retry-max-time: curl's test 366) keeps it.
            let retryable = lastTry ? [] : retry?.statuses ?? []
            let round = self.round, holding = heldBack != nil
            return .transfer(current) { [self] status, headers in
                // The first hop of --digest sent without its body: a 2xx is not the answer.
                if holding && status < 300 { return true }
                if canFollow && Redirect.follows(status: status, headers: headers) { return true }
                if let round, round.answers(status: status, challenges: headers.filter { PekitHeaders.sameName($0.name, "WWW-Authenticate") }.map(\.value.description)) {
                    return true
                }
                guard !retryable.isEmpty, retryable.contains(status) else { return false }
                return retryWait(status: status, retryAfter: PekitResponse.first("Retry-After", in: headers)?.description, now: PekitClient.now()) != nil
            }
        } catch {
            return failed(error, now: now)
        }
    }

    /// Cookies belong to the URL's host, whatever the Host field says (as in curl and browsers):
    /// a request to an address carrying another name's Host field stores them under the address,
    /// and the jar then sends nothing to that name. Says so, and what does what was meant.
    static func hostFieldNote(_ url: RequestURL, _ request: PekitRequest) -> SendOptions.Notice? {
        guard url.hostIsIPAddress, let field = request.headers["Host"] else { return nil }
        var name = field.trimmingOWS
        if name.hasPrefix("[") { return nil }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        guard !name.isEmpty, !RequestURL.isIPAddress(String(name)), name.lowercased() != url.host.lowercased() else { return nil }
        return .cookiesUnderAddress(address: url.host, name: name.lowercased(), port: url.effectivePort)
    }

    /// After a first hop that another sender made and read (`LoadRunner`'s fast path, for a
    /// request the general path would only send and read), as if `next` had asked for it: its
    /// redirect followed from here. `begun` (monotonic seconds) is when that hop went out: the
    /// try's `timeout` counts from it.
    func resumed(after answer: consuming PekitResponse, begun: Double, now: Double) -> Step {
        if firstStarted == nil { firstStarted = now }
        tryBegun = begun
        return completed(.success(answer), started: now - (UnixTime.monotonic() - begun), now: now)
    }

    /// After the transfer `next` asked for ended (started at `started`, Unix seconds).
    /// The result is consumed: the response is moved on, not copied (this runs per request).
    func completed(_ result: consuming Result<PekitResponse, Error>, started: Double, now: Double) -> Step {
        do {
            var response: PekitResponse
            switch consume result {
            case .success(let value): response = value
            case .failure(let error): throw error
            }
            connections += response.connections
            requestHeadBytes += response.requestHeadBytes
            // An https answer's Strict-Transport-Security goes into the HSTS cache.
            if let hsts, let url = try? hopURL(), url.scheme == "https" {
                for value in response.headers(named: "Strict-Transport-Security") { hsts.take(value.description, from: url.host) }
            }
            var receivedLines: [String] = [], storedCookies: [Cookie] = []
            if let jar = options.jar {
                let url = try hopURL()
                // Only a cookie kept under the address itself is news: a filter (httpdns) may have
                // stored it under the name the Host field gives. (Nearly every request has no note
                // to give, and then nothing is compared.)
                let note = options.notice == nil ? nil : Self.hostFieldNote(url, current)
                var storedUnderAddress = false
                let context = hopContext
                for value in response.headers(named: "Set-Cookie") {
                    // As bytes: a value that is not UTF-8 is kept as it came (RFC 6265bis §5.6).
                    let outcome = try value.bytes.withUnsafeBufferPointer {
                        try jar.receive(bytes: $0, from: url, context: context)
                    }
                    if options.explainsCookies {
                        receivedLines.append(CookieJar.line(outcome))
                        if case .stored(let cookie, _) = outcome { storedCookies.append(cookie) }
                    }
                    if case .stored(let cookie, _) = outcome, let note, case .cookiesUnderAddress(let address, _, _) = note {
                        storedUnderAddress = storedUnderAddress || cookie.domain == address
                    }
                }
                if storedUnderAddress, let notice = options.notice, let note { notice(note) }
            }
            if options.explainsCookies {
                response.cookieNotes = .init(sent: hopCookieLines, received: receivedLines, sentCookies: hopSentCookies, storedCookies: storedCookies)
                options.notice?(.cookies(url: current.url, sent: hopCookieLines, received: receivedLines))
                hopCookieLines = []
                hopSentCookies = []
            }
            if let record = options.record {
                var recorded = response
                // A body that went to a file or a callback is recorded from its copy.
                if let copy = response.recordedBody { recorded.body = copy; recorded.recordedBody = nil; response.recordedBody = nil }
                recorded.url = current.url
                recorded.method = current.method
                record(current, recorded, started)
            }
            // --digest, --anyauth: a 401 whose challenge is answered is sent again, answered, once.
            if var round, response.status == 401, round.answer(response.headers(named: "WWW-Authenticate").map(\.description)) {
                self.round = round
                earlierHeads += response.heads
                current = heldBack ?? current
                heldBack = nil
                return next(now: now)
            }
            // A body held back for a challenge that did not come, and a 2xx (curl's test 175: the
            // server took the request as it was): the request goes again, whole, as curl sends
            // its data then (http.c, Curl_http_auth_act). Any other answer is the answer (177).
            if let held = heldBack, response.status < 300 {
                heldBack = nil
                round?.endNegotiation()
                earlierHeads += response.heads
                current = held
                return next(now: now)
            }
            round?.endNegotiation()
            guard options.followRedirects, Redirect.isRedirect(response.status), let location = Redirect.location(response.header("Location")) else {
                response.url = current.url
                response.method = current.method
                response.redirects = hops
                response.referer = current.headers["Referer"]
                return ended(response, now: now)
            }
            guard hops.count < options.maxRedirects else { throw HTTPError.tooManyRedirects(url: request.url, limit: options.maxRedirects) }
            earlierHeads += response.heads
            hops.append(.init(method: current.method, url: current.url, status: response.status, location: location.description))
            let from = current.url
            redirectSeconds += response.timing.total
            current = try Redirect.next(after: current, status: response.status, location: location, trusted: options.trustsRedirects, keepingPost: options.keepsPost)
            if options.autoReferer { try Redirect.setReferer(&current, from: from) }
            if netrc != nil {
                // The file's credentials go wherever the file names the host; the others only
                // where the first request's could (curl's Curl_auth_allowed_to_host).
                let allowed = try options.trustsRedirects || Redirect.sameOrigin(request.requestURL(), current.requestURL())
                // In a challenge round the round writes the field (Digest), with these credentials.
                let given = try Self.applyNetrc(&netrc!, to: &current, allowed: allowed, writing: round == nil)
                if let given, round != nil {
                    round?.use(user: given.user, password: given.password)
                    hopHasNetrcCredentials = given.fromFile
                }
            }
            return next(now: now)
        } catch {
            return failed(error, now: now)
        }
    }

    /// The hop's credentials from `netrc` (curl's for its host): `Authorization: Basic` where
    /// the builder writes it, after Host; none where they may not go. A field the caller wrote
    /// (`-H`, a bearer token) stays as it is, as curl's own gives way to it.
    /// - Parameter writing: whether the field is written here (in a challenge round, the round
    ///   writes it: the builder's Basic field only goes).
    /// - Returns: the credentials that go on this hop, nil when none do.
    private static func applyNetrc(_ netrc: inout NetrcCredentials, to hop: inout PekitRequest, allowed: Bool,
                                   writing: Bool) throws -> (user: String, password: String, fromFile: Bool)? {
        let url = try hop.requestURL()
        let credentials = try netrc.hop(host: url.host, url: hop.urlCredentials, method: hop.method.rawValue, target: hop.url)
        guard hop.basicCredentials != nil || !hop.headers.contains("Authorization") else { return nil }
        guard let credentials, allowed || credentials.fromFile else {
            if hop.basicCredentials != nil { hop.headers.remove("Authorization"); hop.basicCredentials = nil }
            return nil
        }
        guard writing else {
            if hop.basicCredentials != nil { hop.headers.remove("Authorization"); hop.basicCredentials = nil }
            return credentials
        }
        let (user, password) = (credentials.user, credentials.password)
        let value = RequestBuilder.basicAuthorization(user: user, password: password)
        if hop.headers.contains("Authorization") {
            try hop.headers.set("Authorization", value)
        } else {
            let host = hop.headers.fields.firstIndex { PekitHeaders.sameName($0.name, "Host") }
            try hop.headers.insert("Authorization", value, at: host.map { $0 + 1 } ?? 0)
        }
        hop.basicCredentials = [user, password]
        return credentials
    }

    /// A try that ended in a response: the answer, or a retry after the wait the server or the
    /// backoff asks for.
    private func ended(_ response: consuming PekitResponse, now: Double) -> Step {
        var response = consume response
        response.attempts = attempt
        response.connections = connections
        response.requestHeadBytes = requestHeadBytes
        response.timing.redirect = redirectSeconds
        if !earlierHeads.isEmpty { response.heads = earlierHeads + response.heads }
        guard let wait = retryWait(status: response.status, retryAfter: response.header("Retry-After")?.description, now: now) else {
            return done(.success(response))
        }
        // The next try's output replaces this one's, as curl truncates its -o file for it.
        earlierHeads = []
        connections = 0; requestHeadBytes = 0; redirectSeconds = 0
        return again(after: wait, cause: "status \(response.status)", now: now)
    }

    /// The wait before another try after a response of `status` (with its Retry-After), or nil
    /// when the policy does not try again: a status it does not retry, the last try, or a wait
    /// past `maxTimeSeconds`.
    private func retryWait(status: Int, retryAfter: String?, now: Double) -> Double? {
        guard let retry, !lastTry, retry.statuses.contains(status) else { return nil }
        let wait = retry.delay(before: attempt + 1, retryAfter: retryAfter, now: now)
        if let maxTime = retry.maxTimeSeconds, now + wait - (firstStarted ?? now) > maxTime { return nil }
        return wait
    }

    /// What is left of `timeout` for the current hop (nil: no limit).
    var remainingTimeout: Double? {
        guard let total = options.timeoutSeconds else { return nil }
        // What libcurl makes of a limit that is not a positive number is its own (none).
        guard total.isFinite, total > 0, let begun = tryBegun else { return total }
        return max(0.001, total - (UnixTime.monotonic() - begun))
    }

    /// libcurl's words for a transfer past its time, counted from the try's first hop, and never
    /// fewer milliseconds than the limit: libcurl counts whole milliseconds from each part's
    /// start, so the hop it was given what was left of the limit may end up to one millisecond
    /// before the limit on this clock, and libcurl never reports less than its limit.
    private func timedOut(received: Int, of expected: String = "") -> HTTPError {
        let now = UnixTime.monotonic()
        let limit = options.timeoutSeconds.flatMap { $0.isFinite && $0 > 0 ? PekitClient.milliseconds($0) : nil } ?? 0
        let milliseconds = PekitClient.reportedMilliseconds(elapsed: now - (tryBegun ?? now), limit: limit)
        return .transfer(method: current.method.rawValue, url: current.url, code: 28,
                         reason: "Operation timed out after \(milliseconds) milliseconds with \(received)\(expected) bytes received", hint: .timeout)
    }

    /// A hop after the first that libcurl timed out on was given only what was left: its words
    /// count from the try's start, as one libcurl transfer following redirects would.
    private func wholeTryTimeout(_ error: Error) -> Error {
        guard !hops.isEmpty, case .transfer(_, _, 28, let reason, _) = error as? HTTPError,
              reason.hasPrefix("Operation timed out after "), let with = reason.firstRange(of: " milliseconds with ") else { return error }
        let rest = reason[with.upperBound...]
        guard rest.hasSuffix(" bytes received"), let received = Int(rest.prefix { $0.isNumber }) else { return error }
        let expected = rest.firstRange(of: " out of ").map { String(rest[$0.lowerBound...].dropLast(" bytes received".count)) } ?? ""
        return timedOut(received: received, of: expected)
    }

    /// A try that failed: the error, or a retry when the policy says it may pass.
    /// The send's end: the HSTS cache written (`--hsts`), whatever the outcome, as libcurl
    /// writes it when the transfer is done with; a file that cannot be written fails the send.
    private func done(_ result: Result<PekitResponse, Error>) -> Step {
        if let hsts {
            do { try hsts.save() } catch { if case .success = result { return .done(.failure(error)) } }
        }
        return .done(result)
    }

    private func failed(_ error: Error, now: Double) -> Step {
        let error = wholeTryTimeout(error)
        guard let retry, !lastTry, retry.retries(error) else { return done(.failure(error)) }
        let wait = retry.delay(before: attempt + 1, retryAfter: nil, now: now)
        if let maxTime = retry.maxTimeSeconds, now + wait - (firstStarted ?? now) > maxTime { return done(.failure(error)) }
        return again(after: wait, cause: "\(error)", now: now)
    }

    private func again(after wait: Double, cause: String, now: Double) -> Step {
        attempt += 1
        tryBegun = nil
        options.willRetry?(attempt, cause, .seconds(wait))
        current = request
        round = roundAtStart
        heldBack = nil
        hops = []
        booked = false
        return .wait(until: now + wait)
    }
}
