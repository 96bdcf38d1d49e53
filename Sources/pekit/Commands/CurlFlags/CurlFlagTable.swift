/// What pekit does with each of curl 7.88's flags (`curlFlagList`): takes it (`pekit request`
/// and `pekit import curl` read it with curl's meaning), refuses it (and why: the reason is in
/// `pekit import curl`'s refusal too), or has no use for it (a protocol pekit does not speak).
/// `pekit help --curl-flags` writes the table into docs/requests-and-sending.md;
/// CurlFlagTableTests holds each row to what `pekit import curl` does with the flag.
enum CurlFlagTable {
    enum Verdict: Equatable {
        case taken
        case refused(String)
        case notApplicable(String)
    }

    // The reasons, one per kind of flag.
    private static let proxyTLS = "TLS to an HTTPS proxy itself: pekit checks the proxy's certificate against the system's CAs and takes no option of its own for it yet"
    private static let proxyOther = "a proxy feature beyond -x, -U, SOCKS, -p and --noproxy: not yet"
    private static let notSpoken = "an authentication scheme pekit does not speak: NTLM and Negotiate (SPNEGO, GSS-API) are deprecated or need a Kerberos realm; not planned"
    private static let tlsTuning = "TLS tuning beyond --cacert, -k and client certificates (versions, ciphers, pinning, revocation, sessions): not yet"
    private static let connection = "connection tuning (interfaces, ports, keepalive, TCP options, rate limits, DNS servers, DNS over HTTPS): not yet"
    private static let httpVersions = "HTTP/2 without asking over http:// and HTTP/3: this libcurl has no HTTP/3, and pekit asks for HTTP/2 with --http2"
    private static let caches = "an Alt-Svc cache file: not yet"
    private static let protocols = "pekit speaks http:// and https:// only, and checks each URL's scheme itself"

    /// The flags pekit refuses, each with why (a flag not taken and not here is a protocol's
    /// pekit does not speak, by curl's own list of its protocols).
    static let refusals: [String: String] = {
        var out: [String: String] = [:]
        for name in ["proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-insecure", "proxy-key",
                     "proxy-key-type", "proxy-pass", "proxy-pinnedpubkey", "proxy-ssl-allow-beast", "proxy-ssl-auto-client-cert", "proxy-tls13-ciphers",
                     "proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "proxy-tlsv1"] { out[name] = proxyTLS }
        for name in ["proxy-header", "proxy1.0", "preproxy", "haproxy-protocol", "socks5-basic"] { out[name] = proxyOther }
        for name in ["ntlm", "ntlm-wb", "negotiate", "service-name", "proxy-negotiate", "proxy-ntlm", "proxy-service-name", "socks5-gssapi",
                     "socks5-gssapi-nec", "socks5-gssapi-service"] { out[name] = notSpoken }
        for name in ["capath", "cert-status", "ciphers", "crlfile", "curves", "egd-file", "engine", "false-start", "no-alpn", "no-npn", "no-sessionid",
                     "pinnedpubkey", "random-file", "ssl-allow-beast", "ssl-auto-client-cert", "ssl-no-revoke", "ssl-revoke-best-effort", "tls13-ciphers",
                     "tlsauthtype", "tlspassword", "tlsuser", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3", "tls-max"] { out[name] = tlsTuning }
        for name in ["dns-servers", "happy-eyeballs-timeout-ms", "interface", "keepalive-time", "no-keepalive", "local-port", "tcp-fastopen",
                     "tcp-nodelay", "limit-rate", "speed-limit", "speed-time", "parallel-immediate", "retry-connrefused",
                     "doh-url", "doh-insecure", "doh-cert-status"] { out[name] = connection }
        for name in ["http2-prior-knowledge", "http3", "http3-only"] { out[name] = httpVersions }
        out["alt-svc"] = caches
        for name in ["proto", "proto-default", "proto-redir"] { out[name] = protocols }
        out["libcurl"] = "writes a C program that makes the transfer: curl's own, not a request's"
        out["metalink"] = "curl 7.78 and later do nothing with it"
        out["styled-output"] = "curl's bold header names on a terminal: pekit's --color styles what it shows"
        out["trace"] = "a binary trace: pekit writes --trace-ascii's and -v's, not yet this one"
        out["trace-time"] = "time stamps in -v and --trace-ascii: not yet"
        out["xattr"] = "the URL and type in the file's extended attributes: not yet"
        out["disallow-username-in-url"] = "refusing a URL with a user name: not yet"
        out["form-escape"] = "backslash escapes in -F names: not yet"
        out["junk-session-cookies"] = "leaving out a -b file's session cookies: not yet"
        out["sasl-authzid"] = "SASL is for mail and directory protocols, which pekit does not speak"
        out["sasl-ir"] = out["sasl-authzid"]
        out["sslv2"] = "SSL 2 and 3 are broken and gone: curl 7.88 does nothing with these"
        out["sslv3"] = out["sslv2"]
        out["help"] = "curl's own help: pekit help, pekit request --help"
        out["manual"] = out["help"]
        out["version"] = "curl's version: pekit --version"
        return out
    }()

    /// The protocols curl lists for a flag that concern pekit.
    private static let spoken: Set<Substring> = ["HTTP", "HTTPS", "TLS", "SSL"]

    /// What pekit does with curl's flag `long` (its name without dashes), given the long
    /// options `pekit import curl` reads.
    static func verdict(_ long: String, protocols: String, taken: Set<String>) -> Verdict {
        if taken.contains(long) { return .taken }
        if let reason = refusals[long] { return .refused(reason) }
        // curl's list names no protocol for it, but it is TELNET's.
        if long == "telnet-option" { return .notApplicable("for TELNET only") }
        let named = protocols.split(separator: " ")
        if !named.isEmpty && spoken.isDisjoint(with: named) { return .notApplicable("for " + named.joined(separator: ", ") + " only") }
        return .refused("not yet")
    }

    /// The long names `pekit import curl` takes (without dashes).
    static var takenNames: Set<String> {
        var names = Set(RequestOptions.all.map(\.name))
        for name in ignoredCurlFlags.union(curlOwnNames) where name.hasPrefix("--") { names.insert(String(name.dropFirst(2))) }
        return names
    }

    /// Why `pekit import curl` refuses `flag` (`--name` or `-x`), when the table says.
    static func reason(for flag: String) -> String? {
        let long: String
        if flag.hasPrefix("--") { long = String(flag.dropFirst(2)) } else {
            guard let row = curlFlagList.first(where: { "-" + $0.short == flag }) else { return nil }
            long = row.long
        }
        guard let row = curlFlagList.first(where: { $0.long == long }) else { return nil }
        switch verdict(long, protocols: row.protocols, taken: takenNames) {
        case .taken: return nil
        case .refused(let why): return why
        case .notApplicable(let why): return "a flag " + why
        }
    }

    /// The table as Markdown (`pekit help --curl-flags`): every flag, in curl's order of names.
    static var markdown: String {
        let taken = takenNames
        var counts = (taken: 0, refused: 0, notApplicable: 0)
        var rows: [String] = []
        for row in curlFlagList {
            let flag = (row.short.isEmpty ? "" : "`-\(row.short)`, ") + "`--\(row.long)`" + (row.argument.isEmpty ? "" : " `\(row.argument)`")
            let what: String
            switch verdict(row.long, protocols: row.protocols, taken: taken) {
            case .taken: what = "taken"; counts.taken += 1
            case .refused(let why): what = "refused: " + why; counts.refused += 1
            case .notApplicable(let why): what = "not applicable: " + why; counts.notApplicable += 1
            }
            rows.append("| \(flag) | \(what) |")
        }
        return """
            Every flag of curl 7.88's `--help all` (\(curlFlagList.count): \(counts.taken) taken, \(counts.refused) refused, \
            \(counts.notApplicable) not applicable), as `pekit help --curl-flags` writes it:

            | curl 7.88 | pekit |
            |---|---|

            """ + rows.joined(separator: "\n") + "\n"
    }
}
