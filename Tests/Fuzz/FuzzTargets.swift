// libFuzzer entry point for scripts/fuzz: compiled into the PekitCore module itself (no Lua).
// The target is chosen by PEKIT_FUZZ_TARGET: decoder, query, setcookie, cookiefile, jarsave, json, url, jsonpath,
// explain, template.
#if canImport(Glibc)
import Glibc
#endif

private let fuzzTarget: String = {
    guard let raw = getenv("PEKIT_FUZZ_TARGET") else { return "decoder" }
    return String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
}()

/// A directory of this fuzzing process, with a FIFO that no one ever writes to.
private let fuzzDirectory: String = {
    var template = Array("/tmp/pekit-fuzz-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "cannot make a fuzz directory")
    let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    mkfifo(directory + "/fifo", 0o600)
    return directory
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func pekitFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch fuzzTarget {
    case "decoder":
        // Lenient decoding never fails; strict decoding fails only with a positioned error; and
        // decode(encode(x)) == x.
        _ = try? PercentDecoder(mode: .lenient).decode(bytes: bytes)
        do { _ = try PercentDecoder(mode: .strict, plusAsSpace: true, requiresUTF8: true, decodesUnicodeEscapes: true).decode(bytes: bytes) }
        catch let error as PercentDecodingError { precondition(error.position >= 1 && error.position <= max(1, bytes.count)) }
        catch { preconditionFailure("unexpected error \(error)") }
        // Every kernel level the CPU has (scalar, SSSE3, AVX-512) gives the general loop's bytes
        // or error, at the input's own alignment and one byte off it.
        for decoder in [PercentDecoder(mode: .lenient, plusAsSpace: true), PercentDecoder(mode: .strict)] {
            bytes.withUnsafeBufferPointer { whole in
                for input in [whole, UnsafeBufferPointer(rebasing: whole.dropFirst())] {
                    let general = "\(Result { try decoder.decodeByGeneralPath(bytes: input) })"
                    for level in PercentKernelLevel.available {
                        precondition("\(Result { try decoder.decode(bytes: input, level: level) })" == general,
                                     "the decoder's \(level) kernel differs from the general loop")
                    }
                }
            }
        }
        for encoder in [PercentEncoder.rfc3986, .form, .afnetworking, PercentEncoder(allowed: ~AllowedSet(), hexCase: .lower)] {
            bytes.withUnsafeBufferPointer { input in
                let scalar = encoder.encode(bytes: input, level: .scalar)
                for level in PercentKernelLevel.available {
                    precondition(encoder.encode(bytes: input, level: level) == scalar, "the encoder's \(level) kernel differs from the scalar one")
                    precondition(encoder.encodedCount(input, level: level) == scalar.count, "the encoder's \(level) count differs from the length written")
                }
            }
        }
        for encoder in [PercentEncoder.rfc3986, .form, .afnetworking] {
            let decoded = try? PercentDecoder(mode: .strict, plusAsSpace: encoder.space == .plus).decode(bytes: encoder.encode(bytes: bytes))
            precondition(decoded == bytes, "round trip failed")
        }
        // decodeURIComponent (qs, node's querystring) on valid UTF-8 (what a repaired query is):
        // it succeeds exactly when a strict decode does and gives valid UTF-8, and then gives
        // those bytes.
        let text = UTF8Decoding.repaired(bytes)
        for plus in [false, true] {
            let js = try? JSURIDecoding.decodeURIComponent(text, plusAsSpace: plus)
            let strict = (try? PercentDecoder(mode: .strict, plusAsSpace: plus).decode(bytes: text)).flatMap { UTF8Validation.isValid($0) ? $0 : nil }
            precondition(js == strict, "decodeURIComponent differs from a strict decode checked as UTF-8")
        }
    case "query":
        var qs = QSParser()
        qs.allowDots = bytes.first.map { $0 & 1 == 1 } ?? false
        qs.comma = bytes.count > 1 && bytes[1] & 1 == 1
        qs.strictNullHandling = bytes.count > 2 && bytes[2] & 1 == 1
        qs.allowPrototypes = bytes.count > 3 && bytes[3] & 1 == 1
        let fast = try? qs.parse(ByteString(bytes))
        if let value = fast { _ = try? Policy.rfc3986.queryString(value) }
        // The fast path must give what the faithful port gives, on any input.
        QSParser.faithfulOnly = true
        let faithful = try? qs.parse(ByteString(bytes))
        QSParser.faithfulOnly = false
        if fast != faithful { fatalError("qs: the fast path and the port differ on this input") }
        for server in QueryServer.all {
            if let (value, _) = try? server.model.reading(ByteString(bytes)) {
                _ = try? QueryCheck.check(value, policy: .rfc3986, server: server.model)
            }
        }
    case "setcookie":
        let text = String(decoding: bytes, as: UTF8.self)
        // The same bytes as a Cookie header, read by each server's cookie parser, and as a
        // multipart body (the boundary its first line's, or XyZ) by each server's multipart parser.
        for server in CookieServer.allCases { _ = try? server.read(bytes) }
        let firstLine = bytes.prefix { $0 != 0x0A }
        for contentType in [Array("multipart/form-data; boundary=XyZ".utf8), Array("multipart/form-data; boundary=".utf8) + firstLine.dropFirst(2)] {
            for server in MultipartServer.allCases { _ = try? server.read(contentType: contentType, body: bytes) }
        }
        _ = SetCookie(text)
        _ = CookieDate.parse(text)
        let jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nco.uk\n*.ck\n!www.ck\n"), clock: { 1_700_000_000 })
        if let url = try? RequestURL("https://www.example.com/a/b") {
            _ = try? jar.receive(text, from: url)
            _ = try? jar.header(for: url)
        }
    case "cookiefile":
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        _ = try? jar.load(bytes, format: .netscape, name: "fuzz")
        _ = try? jar.load(bytes, format: .json, name: "fuzz")
        // What is kept can always be written, read back and listed (no control byte, no
        // expiry too large to write, no value over the limit survives loading).
        for cookie in jar.all {
            precondition(Cookie.problem(name: cookie.name, value: cookie.value, limit: jar.limits.maxNameValueBytes) == nil, "a bad cookie was kept")
            precondition(cookie.expires.map { !$0.isNaN && $0 <= 1_700_000_000 + Cookie.maximumLifetime } ?? true, "expiry past the cap")
        }
        let written = jar.serialized(.netscape, sessions: true)
        let back = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        precondition((try? back.load(written, format: .netscape, name: "again"))?.warnings == [], "a saved jar does not load cleanly")
        // From files: the input as a regular file, huge values made from it, and special files
        // chosen by the first byte (a device that never ends, one that is empty, a FIFO with no
        // writer, which must be refused at once instead of blocking).
        let directory = fuzzDirectory
        let path = directory + "/jar.txt"
        let huge = bytes.first.map { $0 & 1 == 1 } ?? false
        let content = huge ? Array("x.example\tFALSE\t/\tFALSE\t0\tn\t".utf8) + Array(repeating: bytes.last ?? 0x41, count: 5000) + bytes : bytes
        _ = try? Files.writeAtomically(content, to: path)
        let fromFile = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        _ = try? fromFile.load(from: path)
        precondition(fromFile.all.allSatisfy { $0.value.utf8.count <= 4096 }, "a huge value was loaded")
        let special = ["/dev/zero", "/dev/urandom", "/dev/null", directory + "/fifo", directory]
        let target = special[Int(bytes.first ?? 0) % special.count]
        // Every one of them is refused without reading (never a hang, never unbounded memory).
        if (try? fromFile.load(from: target)) != nil { preconditionFailure("\(target) loaded as a cookie jar") }
    case "jarsave":
        // Saving and loading a jar never changes what it sends: lines of the input are Set-Cookie
        // values received from request URLs the bytes choose, then the Cookie header for each of
        // those URLs is the same from the live jar and from jars loaded from its saved files
        // (cookies.txt and JSON).
        let urls = ["http://www.example.com/", "https://www.example.com/a/b", "https://example.com/a", "http://a.b.example.com/a/b/c",
                    "https://shop.example.co.uk/x", "http://127.0.0.1:8080/p", "https://[::1]/q/r", "http://example.com./dot"]
            .compactMap { try? RequestURL($0) }
        var now = 1_700_000_000.0
        let jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nco.uk\nuk\n"), clock: { 1_700_000_000 })
        // The line's first byte picks the URL and the top-level page (none, or one of the URLs:
        // a Partitioned cookie is kept under its site); the rest is the value, as bytes.
        for (i, line) in bytes.split(separator: 0x0A).prefix(64).enumerated() {
            let pick = Int(line.first ?? 0)
            let url = urls[pick % urls.count]
            let top = pick / urls.count % (urls.count + 1) == urls.count ? nil : urls[pick / urls.count % (urls.count + 1)]
            _ = try? Array(line.dropFirst()).withUnsafeBufferPointer { try jar.receive(bytes: $0, from: url, topLevel: top) }
            now += Double(i)
        }
        for format in [CookieJar.FileFormat.netscape, .json] {
            let back = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nco.uk\nuk\n"), clock: { 1_700_000_000 })
            _ = try? back.load(jar.serialized(format, sessions: true), format: format, name: "saved")
            for url in urls {
                for top in [RequestURL?.none] + urls.prefix(3).map(Optional.some) {
                    let context = CookieJar.RequestContext(topLevel: top)
                    let live = try? jar.headerBytes(for: url, context: context), loaded = try? back.headerBytes(for: url, context: context)
                    precondition(live == loaded, "\(format) round trip changed the Cookie header for \(url) under \(top?.description ?? "itself")")
                }
            }
        }
    case "json":
        // Strings that are not UTF-8 are written as \u00XX escapes of their bytes, which read
        // back as characters: the round trip is exact only for UTF-8 input (a finding of this fuzzer).
        if let value = try? JSONText.parse(bytes), UTF8Validation.isValid(bytes) {
            precondition((try? JSONText.parse(JSONText.write(value))) == value, "JSON round trip failed")
        }
    case "url":
        // The WHATWG parser on any text, alone and against a base: it fails or gives a URL whose
        // href parses again to the same href (the serializer's output is a fixed point), and the
        // setters take any value without breaking that.
        let text = String(decoding: bytes, as: UTF8.self)
        let base = try? WHATWGURL("http://user:pw@h.example:8080/a/b?q#f")
        // The bytes as they are (not UTF-8, maybe) parse as their decoding does.
        var fromBytes = "fails"
        bytes.withUnsafeBufferPointer { input in try? WHATWGURL.parse(bytes: input, base: nil) { href, _ in fromBytes = String(decoding: href, as: UTF8.self) } }
        precondition(fromBytes == ((try? WHATWGURL(text))?.href ?? "fails"), "bytes parse to \(fromBytes), their text to \((try? WHATWGURL(text))?.href ?? "fails")")
        // The text as a host (UTS #46 in scratch buffers): from the String's own UTF-8 and from
        // a copy of its bytes (checked again), the same host or the same failure.
        var hostFailure = ""
        let viaString = (try? IDNA.domainToASCII(text)) ?? "fails"
        let viaBytes = URLHost.parse(bytes: Array(text.utf8), special: true, failure: &hostFailure)?.description ?? "fails"
        precondition(viaString == viaBytes, "host \(viaString) from the String, \(viaBytes) from its bytes")
        // The one-pass parser and the state machine agree on every input the first takes.
        for b in [nil, base] where WHATWGURL.fastPathTakes(text, base: b) {
            let fast = try? WHATWGURL(text, base: b), slow = try? WHATWGURL.parsedByStateMachine(text, base: b)
            precondition(fast?.href == slow?.href && fast?.spans == slow?.spans, "fast path \(fast?.href ?? "fails") != state machine \(slow?.href ?? "fails")")
        }
        for candidate in [try? WHATWGURL(text), try? WHATWGURL(text, base: base), try? WHATWGURL(text, base: try? WHATWGURL("foo:/a/b"))] {
            guard var url = candidate else { continue }
            precondition((try? WHATWGURL(url.href))?.href == url.href, "href is not a fixed point: \(url.href)")
            let half = text.unicodeScalars.count / 2
            let value = String(String.UnicodeScalarView(text.unicodeScalars.suffix(half)))
            for component in WHATWGURL.settableComponents where component != "href" {
                var changed = url
                _ = try? changed.set(component, to: value)
                precondition((try? WHATWGURL(changed.href))?.href == changed.href, "after .\(component): href is not a fixed point: \(changed.href)")
            }
            url.setQueryPairs(url.queryPairs)
        }
        _ = try? IDNA.domainToUnicode(text)
    case "jsonpath":
        // A JSONPath query (the first line) over a JSON document (the rest; a small fixed one
        // when that is no JSON): parsing fails or succeeds, never crashes, however deep; the
        // query under a small budget ends, and where it finishes it selects what the unbounded
        // query selects. The same line as an I-Regexp over the document's text matches in at
        // most (length + 1) × (program + 1) steps.
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let query = String(decoding: bytes[..<newline], as: UTF8.self)
        let rest = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
        let document = (try? JSONText.parse(rest, maxDepth: 64)) ?? ["a", ["b": 1, "c": [1, 2, "aab"]], 3.5, .null, true]
        if let path = try? JSONPath(query) {
            var budget = WorkBudget(steps: 200_000)
            if let bounded = try? path.select(document, budget: &budget) {
                var again = WorkBudget(steps: 400_000)
                precondition((try? path.select(document, budget: &again)) == bounded, "a larger budget selects differently")
            }
        }
        if let regex = IRegexp(query) {
            let subject = String(decoding: rest.prefix(512), as: UTF8.self)
            for whole in [true, false] {
                var budget = WorkBudget.unlimited
                _ = try? regex.matches(subject, whole: whole, budget: &budget)
                precondition(budget.spent <= (subject.unicodeScalars.count + 1) * (regex.program.count + 1) + subject.unicodeScalars.count / 64,
                             "\(budget.spent) steps for \(subject.unicodeScalars.count) code points and \(regex.program.count) instructions")
            }
        }
    case "explain":
        // `pekit encode --explain`: under the set, space and escapes the first byte picks, the
        // steps join into the encoder's output, and each server's reading of that output worked
        // out rule by rule is the model's parse of the whole query; so is the reading of the
        // input itself made ASCII (what a set that allows everything would leave).
        let pick = bytes.first ?? 0
        let sets: [AllowedSet] = [.unreserved, .query, .path, .form, .afnetworking, ~AllowedSet()]
        let encoder = PercentEncoder(allowed: sets[Int(pick & 7) % sets.count], space: pick & 8 == 0 ? .percent : .plus,
                                     keepsValidEscapes: pick & 16 != 0)
        let input = Array(bytes.dropFirst())
        let steps = encoder.explain(input, origin: AllowedSetOrigin(base: .unreserved, name: "unreserved"))
        let encoded = encoder.encode(bytes: input)
        precondition(steps.flatMap(\.bytes) == input && steps.flatMap(\.written) == encoded, "the steps are not the encoding")
        for model in QueryServer.models {
            for value in [encoded, input.map { $0 & 0x7F }] {
                if let disagreement = model.disagreement(value) { preconditionFailure(disagreement) }
            }
        }
    case "template":
        // `RequestTemplate` (a load script's requests made from the one before) against
        // `RequestBuilder.build()`: for a builder the bytes describe (a URL, a method, fields named
        // and valued by the bytes, removals) and other values of its fields, where the template
        // serves, it makes the request and head the builder builds, or throws what it throws.
        var at = 0
        func next() -> UInt8 { defer { at += 1 }; return at < bytes.count ? bytes[at] : 0 }
        func chunk() -> [UInt8] { (0..<Int(next() % 12)).map { _ in next() } }
        let urls = ["http://127.0.0.1:8080/ok", "http://u:p@h/p?q", "http://[::1]/", "http://h/\u{e9} x", "nope"]
        var builder = RequestBuilder(url: urls[Int(next()) % urls.count])
        builder.method = .init(["GET", "post", "HEAD", "BAD METHOD"][Int(next()) % 4])
        let names = ["X-A", "x-a", "Host", "Accept", "Cookie", "Expect", "Content-Type", "Content-Length", "Transfer-Encoding", "User-Agent"]
        for _ in 0..<Int(next() % 5) {
            let pick = next()
            let name = pick & 0x80 != 0 ? String(decoding: chunk(), as: UTF8.self) : names[Int(pick) % names.count]
            builder.headers.append(pick & 0x40 != 0 ? .init(name, nil) : .init(name, bytes: chunk()))
        }
        guard let (made, _) = try? RequestTemplate.make(builder), let template = made else { break }
        var other = builder
        for i in other.headers.indices where other.headers[i].value != nil { other.headers[i] = .init(other.headers[i].name, bytes: chunk()) }
        let expected = Result { try other.build() }
        switch (Result { try template.request(url: other.url, method: other.method.rawValue, headers: other.headers) }, expected) {
        case (.success(let request?), .success(let built)):
            precondition(request.head() == built.head() && request.headers == built.headers && request.url == built.url && request.method == built.method,
                         "the template made \(request.head()), the builder built \(built.head())")
        case (.success(nil), _): break  // a value empty where the template's was not, or the other way: another shape
        case (.failure(let a), .failure(let b)): precondition("\(a)" == "\(b)", "the template threw \(a), the builder \(b)")
        case (let got, _): preconditionFailure("the template gave \(got), the builder \(expected)")
        }
    default:
        preconditionFailure("unknown PEKIT_FUZZ_TARGET \(fuzzTarget)")
    }
    return 0
}
