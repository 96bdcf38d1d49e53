// Times PekitCore against Foundation on the same bytes in the same process, for scripts/bench.
// usage: pekit-bench encode|decode SET FILE... ; prints one JSON object per line:
// {"op":"encode","impl":"pekit","input":"FILE","mbps":1234.5,"runs":7}
import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Median MB/s of `runs` timed runs of `calls` calls each of `body` over `bytes` input bytes,
/// after `warmups` calls. Runs of several calls give sustained throughput, as lua_call.lua
/// measures it from Lua (where the collector's work falls on some calls and not others, so a
/// median of single calls hides it or charges it whole).
func measure(_ bytes: Int, runs: Int = 7, warmups: Int = 1, calls: Int = 1, _ body: () -> Int) -> Double {
    var sink = 0
    for _ in 0..<warmups { sink &+= body() }
    var rates: [Double] = []
    for _ in 0..<runs {
        let start = now()
        for _ in 0..<calls { sink &+= body() }
        rates.append(Double(bytes * calls) / 1e6 / (now() - start))
    }
    if sink == -1 { print("") }  // keeps the work from being optimised away
    return rates.sorted()[runs / 2]
}

func report(_ op: String, _ impl: String, _ input: String, _ mbps: Double) {
    print("{\"op\":\"\(op)\",\"impl\":\"\(impl)\",\"input\":\"\(input)\",\"mbps\":\(String(format: "%.1f", mbps))}")
}

let args = CommandLine.arguments.dropFirst()

// pekit-bench send URL N [CONCURRENCY]: N GETs from Swift alone (no Lua), one after another or
// CONCURRENCY at once; prints the seconds from the first request to the last answer, so the
// Lua layer's share of `pekit.http` can be told apart.
if args.first == "send", args.count >= 3, let n = Int(args[args.startIndex + 2]) {
    let url = args[args.startIndex + 1]
    let concurrency = args.count > 3 ? Int(args[args.startIndex + 3]) ?? 1 : 1
    do {
        let client = try PekitClient()
        let request = try RequestBuilder(url: url).build()
        let start = now()
        if concurrency > 1 {
            let results = client.sendAllBlocking(Array(repeating: (request, SendOptions()), count: n), concurrency: concurrency)
            if results.contains(where: { if case .failure = $0 { return true }; return false }) { print("a request failed"); exit(1) }
        } else {
            for _ in 0..<n { _ = try client.sendBlocking(try RequestBuilder(url: url).build()) }
        }
        print("{\"impl\":\"pekit-swift-send\",\"requests\":\(n),\"concurrency\":\(concurrency),\"elapsed\":\(now() - start)}")
    } catch {
        print("send failed: \(error)")
        exit(1)
    }
    exit(0)
}

// pekit-bench build URL N: the ns a `RequestBuilder(url:).build()` takes (median of 7 runs of N),
// the request half of what one `pekit.http.get(url)` costs besides the network.
if args.first == "build", args.count >= 3, let n = Int(args[args.startIndex + 2]) {
    let url = args[args.startIndex + 1]
    var times: [Double] = []
    var sink = 0
    for _ in 0..<8 {
        let start = now()
        for _ in 0..<n {
            let builder = RequestBuilder(url: url)
            sink &+= (try? builder.build())?.url.utf8.count ?? 0
        }
        times.append((now() - start) / Double(n) * 1e9)
    }
    times.removeFirst()
    print("{\"op\":\"build\",\"ns\":\(String(format: "%.0f", times.sorted()[3])),\"min\":\(String(format: "%.0f", times.min() ?? 0)),\"sink\":\(sink)}")
    exit(0)
}

// pekit-bench query DOC.json: flatten+encode under qs's rules, then parse back (ms, medians).
if args.first == "query", let path = args.dropFirst().first {
    guard let data = FileManager.default.contents(atPath: path), let doc = try? JSONText.parse([UInt8](data)) else {
        FileHandle.standardError.write("pekit-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(1)
    }
    let policy = Policy(name: "qs", order: .given, arrays: .indices)
    var out = ByteString("")
    // Three calls first: the first calls of a process grow the C heap to its working size
    // (fresh pages, and glibc's mmap threshold still moving), up to twice the time of the rest.
    func ms(_ body: () -> Void) -> Double {
        for _ in 0..<3 { body() }
        var times: [Double] = []
        for _ in 0..<7 { let start = now(); body(); times.append((now() - start) * 1000) }
        return times.sorted()[3]
    }
    // PEKIT_BENCH_ENCODE_LOOP=1: 30 encodes; prints the minimum and median ms, for profiling
    // the flattener and writer alone.
    if ProcessInfo.processInfo.environment["PEKIT_BENCH_ENCODE_LOOP"] != nil {
        var times: [Double] = [], bytes = 0
        for _ in 0..<30 {
            let start = now()
            bytes &+= ((try? policy.queryString(doc)) ?? "").count
            times.append((now() - start) * 1000)
        }
        times.sort()
        print("{\"impl\":\"pekit-swift\",\"encode_min_ms\":\(String(format: "%.2f", times[0])),\"encode_median_ms\":\(String(format: "%.2f", times[15])),\"bytes\":\(bytes / 30)}")
        exit(0)
    }
    // Each result is dropped inside the timed call, as the peers' loops drop theirs.
    var written = 0
    let encodeMs = ms { written &+= ((try? policy.queryString(doc)) ?? "").count }
    out = (try? policy.queryString(doc)) ?? ""
    if written == -1 { print("") }
    var parser = QSParser()
    parser.parameterLimit = nil; parser.arrayLimit = 1000; parser.depth = 10
    // PEKIT_BENCH_PARSE_LOOP=1: 30 parses, the last two results kept alive (so freeing one is
    // not timed); prints the minimum and median ms, for profiling the parser alone.
    // PEKIT_BENCH_PARSE_LOOP=free: each result freed inside the timed run, as the bench's figure.
    if let loop = ProcessInfo.processInfo.environment["PEKIT_BENCH_PARSE_LOOP"] {
        let keep = loop != "free"
        var kept: [PekitValue] = [], times: [Double] = []
        for _ in 0..<30 {
            let start = now()
            if keep {
                let value = try? parser.parse(out)
                times.append((now() - start) * 1000)
                if let value { kept.append(value) }
                if kept.count > 2 { kept.removeFirst() }
            } else {
                do { _ = try? parser.parse(out) }
                times.append((now() - start) * 1000)
            }
        }
        times.sort()
        print("{\"impl\":\"pekit-swift\",\"parse_min_ms\":\(String(format: "%.2f", times[0])),\"parse_median_ms\":\(String(format: "%.2f", times[15]))}")
        exit(0)
    }
    let parseMs = ms { _ = try? parser.parse(out) }
    print("{\"impl\":\"pekit-swift\",\"encode_ms\":\(String(format: "%.2f", encodeMs)),\"parse_ms\":\(String(format: "%.2f", parseMs)),\"bytes\":\(out.count)}")
    exit(0)
}

// pekit-bench urls FILE: ms to parse every line with the WHATWG URL parser and serialize its
// href (median of 5), and how many failed.
if args.first == "urls", let path = args.dropFirst().first {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("pekit-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(1)
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    var failures = 0, length = 0
    let hrefToo = ProcessInfo.processInfo.environment["PEKIT_BENCH_NO_HREF"] == nil
    func run() {
        failures = 0; length = 0
        // PEKIT_BENCH_URL_BYTES=1: the byte API, the href lent to a closure (no String made),
        // as ada's get_href() lends a view of its buffer.
        if ProcessInfo.processInfo.environment["PEKIT_BENCH_URL_BYTES"] != nil {
            for var line in lines {
                line.withUTF8 { b in
                    do { try WHATWGURL.parse(bytes: b, base: nil) { h, _ in length &+= h.count } } catch { failures += 1 }
                }
            }
            return
        }
        for line in lines {
            if let url = try? WHATWGURL(line) { length &+= hrefToo ? url.href.utf8.count : url.query?.utf8.count ?? 0 } else { failures += 1 }
        }
    }
    run()
    var times: [Double] = []
    for _ in 0..<5 { let start = now(); run(); times.append((now() - start) * 1000) }
    print("{\"impl\":\"pekit-swift\",\"ms\":\(String(format: "%.2f", times.sorted()[2])),\"failures\":\(failures),\"count\":\(lines.count)}")
    exit(0)
}

// pekit-bench sigv4 N: µs to sign one request with AWS Signature V4 (the request already built).
if args.first == "sigv4", let n = args.dropFirst().first.flatMap({ Int($0) }) {
    var headers = PekitHeaders()
    try? headers.add("Host", "iam.amazonaws.com")
    try? headers.add("Accept-Language", "en;q=1")
    let request = PekitRequest(method: "GET", url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08", headers: headers, body: .empty)
    let signer = AWSSigV4(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "iam")
    let start = now()
    for _ in 0..<n { var r = request; _ = try? signer.sign(&r, at: 1_764_504_000) }
    let signOnly = (now() - start) / Double(n) * 1e6
    // Built and signed: RequestBuilder with its default headers, then the signature.
    let built = now()
    for _ in 0..<n {
        var builder = RequestBuilder(url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08")
        builder.signer = { try signer.sign(&$0, at: 1_764_504_000) }
        _ = try? builder.build()
    }
    let buildAndSign = (now() - built) / Double(n) * 1e6
    print("{\"impl\":\"pekit-swift\",\"sigv4_us\":\(String(format: "%.2f", signOnly)),\"build_sigv4_us\":\(String(format: "%.2f", buildAndSign))}")
    exit(0)
}

// pekit-bench idna NAMES_FILE: ns a name for IDNA.domainToASCII (median of 7 passes), and how
// many it refused.
if args.first == "idna", let path = args.dropFirst().first {
    guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
    let names = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    var times: [Double] = [], refused = 0
    let repeats = max(1, 20_000 / max(1, names.count))
    _ = names.map { try? IDNA.domainToASCII($0) }  // the tables are read on the first name
    for _ in 0..<7 {
        refused = 0
        let start = now()
        for _ in 0..<repeats { for name in names where (try? IDNA.domainToASCII(name)) == nil { refused += 1 } }
        times.append((now() - start) / Double(names.count * repeats) * 1e9)
        refused /= repeats
    }
    print("{\"impl\":\"pekit\",\"ns_per_name\":\(String(format: "%.1f", times.sorted()[3])),\"names\":\(names.count),\"refused\":\(refused),\"unicode\":\"\(IDNA.unicodeVersion)\"}")
    exit(0)
}

// pekit-bench cookies DOMAINS PER_DOMAIN: parse+store rate, and Cookie header lookups (µs).
if args.first == "cookies", args.count >= 3, let domains = Int(args[args.startIndex + 1]), let perDomain = Int(args[args.startIndex + 2]) {
    let psl = try? PublicSuffixList.load()
    let jar = CookieJar(publicSuffixes: psl, clock: { 1_700_000_000 })
    jar.limits.total = domains * perDomain + 1
    jar.limits.perDomain = perDomain + 1
    var received: [(String, RequestURL)] = []
    for d in 0..<domains {
        guard let url = try? RequestURL("https://www.site\(d).example.com/app/page") else { exit(1) }
        for c in 0..<perDomain {
            received.append(("c\(c)=value\(d)_\(c); Path=/app; Domain=site\(d).example.com; Max-Age=86400; Secure; HttpOnly; SameSite=Lax", url))
        }
    }
    let start = now()
    for (header, url) in received { _ = try? jar.receive(header, from: url) }
    let parsePerSecond = Double(received.count) / (now() - start)
    var rng = SystemRandomNumberGenerator()
    let lookups = (0..<20_000).compactMap { _ in try? RequestURL("https://www.site\(Int.random(in: 0..<domains, using: &rng)).example.com/app/x") }
    var times: [Double] = []
    for _ in 0..<5 {
        let t = now()
        for url in lookups { _ = try? jar.header(for: url) }
        times.append((now() - t) / Double(lookups.count) * 1e6)
    }
    print("{\"impl\":\"pekit\",\"cookies\":\(jar.count),\"domains\":\(domains),\"parse_per_s\":\(Int(parsePerSecond)),\"lookup_us\":\(String(format: "%.2f", times.sorted()[2]))}")
    exit(0)
}

// pekit-bench encode-sets FILE...: `PercentEncoder.encode(bytes:)` under every preset allowed
// set (issue 47's "every allowed set"), beside memcpy of the same input.
if args.first == "encode-sets" {
    for path in args.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write("pekit-bench: cannot read \(path)\n".data(using: .utf8)!)
            exit(1)
        }
        let bytes = [UInt8](data)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: bytes.count)
        report("encode", "memcpy", name, measure(bytes.count) { bytes.withUnsafeBufferPointer { scratch.update(from: $0.baseAddress!, count: $0.count) }; return bytes.count })
        for preset in AllowedSet.presetNames {
            guard let set = AllowedSet.preset(named: preset) else { continue }
            let encoder = PercentEncoder(allowed: set)
            report("encode", "set-\(preset)", name, measure(bytes.count) { encoder.encode(bytes: bytes).count })
        }
    }
    exit(0)
}

guard args.count >= 3, let op = args.first, let set = AllowedSet.preset(named: args[args.startIndex + 1]) else {
    FileHandle.standardError.write("usage: pekit-bench encode|decode SET FILE...\n".data(using: .utf8)!)
    exit(2)
}
var foundationSet = CharacterSet()
for byte in set.bytes { foundationSet.insert(Unicode.Scalar(byte)) }
let encoder = PercentEncoder(allowed: set)
let decoder = PercentDecoder()

for path in args.dropFirst(2) {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("pekit-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(1)
    }
    let bytes = [UInt8](data)
    let name = URL(fileURLWithPath: path).lastPathComponent
    // Foundation takes a String: bytes that are not UTF-8 are repaired (U+FFFD) first, as a caller would have to.
    let text = String(decoding: bytes, as: UTF8.self)
    // Yardsticks in the same run: memcpy of the input, and each kernel level this CPU has
    // writing into one reused buffer (no allocation, no page faults: the loop's own speed).
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: PercentEncoder.maximumEncodedCount(bytes.count))
    defer { scratch.deallocate() }
    scratch.initialize(repeating: 0, count: PercentEncoder.maximumEncodedCount(bytes.count))
    report(op, "memcpy", name, measure(bytes.count) { bytes.withUnsafeBufferPointer { scratch.update(from: $0.baseAddress!, count: $0.count) }; return bytes.count })
    for level in PercentKernelLevel.available {
        report(op, "kernel-\(level)", name, measure(bytes.count) {
            bytes.withUnsafeBufferPointer { op == "encode" ? encoder.encode(bytes: $0, level: level, into: scratch) : decoder.decode(bytes: $0, level: level, into: scratch) ?? 0 }
        })
    }
    if op == "encode" {
        // Steady state, as lua_call.lua measures pekit.encode from Lua (the Lua host's row compares them).
        report(op, "pekit", name, measure(bytes.count, runs: 15, warmups: 5) { encoder.encode(bytes: bytes).count })
        report(op, "pekit-sustained", name, measure(bytes.count, runs: 7, warmups: 5, calls: 15) { encoder.encode(bytes: bytes).count })
        report(op, "pekit-string", name, measure(bytes.count) { encoder.encode(text).utf8.count })
        report(op, "foundation", name, measure(bytes.count, runs: 3) { text.addingPercentEncoding(withAllowedCharacters: foundationSet)?.utf8.count ?? 0 })
    } else {
        report(op, "pekit", name, measure(bytes.count) { (try? decoder.decode(bytes: bytes))?.count ?? 0 })
        // Strict mode: the same kernels, the general loop only to name a bad escape's place.
        let strict = PercentDecoder(mode: .strict)
        report(op, "pekit-strict", name, measure(bytes.count) { (try? strict.decode(bytes: bytes))?.count ?? 0 })
        // The general loop the fast path is held to, in the same run: the fast path's gain.
        report(op, "pekit-general", name, measure(bytes.count) {
            (try? bytes.withUnsafeBufferPointer { try decoder.decodeByGeneralPath(bytes: $0) })?.count ?? 0
        })
        report(op, "foundation", name, measure(bytes.count, runs: 3) { text.removingPercentEncoding?.utf8.count ?? 0 })
    }
}
