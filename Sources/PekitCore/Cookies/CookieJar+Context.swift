extension CookieJar.RequestContext {
    /// The methods RFC 9110 §9.2.1 calls safe.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// The context's site for a request to (or a response from) `url`, RFC 6265bis §5.2: `site`
    /// as given, or, with `siteForCookies`, same-site when both have one schemeful site; else a
    /// cross-site top-level navigation when `navigation` is set and, to send (not to store,
    /// §5.7), the method is safe; else cross-site.
    /// - Parameter url: the request's (or response's) URL.
    /// - Parameter storing: judged for a response's Set-Cookie rather than a request's Cookie.
    /// - Parameter jar: the jar whose public suffix list says what a site is.
    public func site(for url: RequestURL, storing: Bool = false, in jar: CookieJar) -> Site {
        guard let page = siteForCookies else { return site }
        if jar.site(of: page) == jar.site(of: url) { return .same }
        return navigation && (storing || Self.safeMethods.contains(method.uppercased())) ? .crossNavigation : .cross
    }

    /// This context with `site` judged for `url`, and nothing left to judge.
    func resolved(for url: RequestURL, in jar: CookieJar) -> Self {
        guard siteForCookies != nil else { return self }
        var copy = self
        copy.site = site(for: url, in: jar)
        copy.siteForCookies = nil
        return copy
    }
}
