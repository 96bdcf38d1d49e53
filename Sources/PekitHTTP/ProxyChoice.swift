#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// The proxy a request goes through, chosen as libcurl 7.88 chooses it (url.c's
/// `detect_proxy` and noproxy.c's `Curl_check_noproxy`): the `proxy` option, else the
/// environment's (`http_proxy` for http://, `https_proxy` or `HTTPS_PROXY` for https://, then
/// `all_proxy`, `ALL_PROXY`), unless the host is on the `noProxy` list (else `no_proxy`,
/// `NO_PROXY`). libcurl sends through it; pekit needs to know it to write the request's fields
/// in curl's places (an HTTP proxy's `Proxy-Connection`, a tunnel's `CONNECT`).
struct ProxyChoice: Equatable {
    /// The proxy as given (`http://p:3128`, `socks5h://p`, `p:3128`).
    let url: String

    /// A SOCKS proxy (`socks4://`, `socks4a://`, `socks5://`, `socks5h://`): the request goes
    /// as without one. Any other scheme, or none, is an HTTP(S) proxy (libcurl's default type).
    var isSOCKS: Bool {
        let scheme = url.lowercased().prefix { $0 != ":" }
        return url.contains("://") && scheme.hasPrefix("socks")
    }

    /// The proxy for `url` under `options`, or nil when it goes direct.
    static func choose(for url: String, _ options: borrowing SendOptions) -> ProxyChoice? {
        let parsed = try? RequestURL(url, readingHostAsCurl: true)
        let proxy: String
        if let given = options.proxy {
            proxy = given
        } else {
            let names = parsed?.scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]
            guard let found = (names + ["all_proxy", "ALL_PROXY"]).lazy.compactMap(environment).first else { return nil }
            proxy = found
        }
        guard !proxy.isEmpty else { return nil }
        let list = options.noProxy ?? environment("no_proxy") ?? environment("NO_PROXY")
        if let list, let host = parsed?.host, bypasses(host, list) { return nil }
        return ProxyChoice(url: proxy)
    }

    private static func environment(_ name: String) -> String? {
        guard let value = CLibrary.environment(name), !value.isEmpty else { return nil }
        return value
    }

    /// Whether `host` (a name, or an address; IPv6 with or without brackets) is on `list` as libcurl
    /// 7.88 reads it: `*` alone for every host; otherwise entries separated by commas or
    /// blanks, a name matching itself and the names under it (a leading and a trailing dot
    /// ignored, case ignored), an address matching itself or, with `/bits`, its network.
    static func bypasses(_ host: String, _ list: String) -> Bool {
        guard !host.isEmpty, !list.isEmpty else { return false }
        if list == "*" { return true }
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let v4 = address(host, family: AF_INET), v6 = address(host, family: AF_INET6)
        var name = host.lowercased()
        if v4 == nil && v6 == nil && name.hasSuffix(".") { name.removeLast() }
        for entry in list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            if v4 != nil || v6 != nil {
                // libcurl copies an address entry into 128 bytes: a longer one never matches.
                guard entry.utf8.count < 128 else { continue }
                let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                let bits = parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0
                let family = v4 != nil ? AF_INET : AF_INET6
                guard let network = address(String(parts[0]), family: family), let mine = v4 ?? v6 else { continue }
                if matches(mine, network, bits: bits) { return true }
                continue
            }
            var token = entry.lowercased()
            if token.hasSuffix(".") { token.removeLast() }
            if token.hasPrefix(".") { token.removeFirst() }
            if token.isEmpty { continue }
            if token == name || name.hasSuffix("." + token) { return true }
        }
        return false
    }

    /// An address's bytes in network order, or nil when `text` is not one of the family.
    private static func address(_ text: String, family: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: family == AF_INET ? 4 : 16)
        let ok = bytes.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) }
        return ok == 1 ? bytes : nil
    }

    /// libcurl's CIDR test: the first `bits` bits equal (0, or the whole width: the address).
    private static func matches(_ address: [UInt8], _ network: [UInt8], bits: Int) -> Bool {
        let width = address.count * 8
        guard bits <= width else { return false }
        let count = bits == 0 ? width : bits
        for i in 0..<count where (address[i / 8] ^ network[i / 8]) & (0x80 >> UInt8(i % 8)) != 0 { return false }
        return true
    }
}
