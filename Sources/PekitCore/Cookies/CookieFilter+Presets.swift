extension CookieFilter {
    /// HTTPDNS "IP direct connect", as the `httpdns` plugin does it: requests go to an IP
    /// address, but cookies belong to the host name behind it. With
    /// `hosts: ["203.0.113.7": "api.example.com"]`, a cookie received from http://203.0.113.7/
    /// is stored under api.example.com, and requests to the name, or to any IP of the same host,
    /// send it. Addresses and names are compared without case.
    /// - Complexity: one dictionary lookup a URL.
    public static func httpdns(hosts: [String: String]) -> CookieFilter {
        var table: [String: String] = [:]
        for (ip, name) in hosts { table[ip.lowercased()] = name.lowercased() }
        let lookup = table
        return CookieFilter(name: "httpdns", host: { url in lookup[url.host] })
    }
}
