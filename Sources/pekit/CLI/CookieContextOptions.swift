import PekitCore

/// The jar's context on the command line (`pekit cookies`, `pekit request`): one set of rows
/// and one reading, so the two commands take the same flags and mean the same by them.
enum CookieContextOptions {
    static let site = Option("site", value: "CONTEXT", """
        the context cookies are sent and set in: same-site (the default),
        cross-site-navigation (a top-level navigation from another site: no
        Strict cookies sent) or cross-site (a subresource: no Strict or Lax
        cookies sent, and none set)
        """)
    static let sameSite = Option("same-site", "the same as --site same-site")
    static let crossSite = Option("cross-site", """
        the same as --site cross-site, or cross-site-navigation with
        --navigation
        """)
    static let siteForCookies = Option("site-for-cookies", value: "URL", """
        the page the request is made for (RFC 6265bis's site for cookies): each
        request, and each hop of a redirect, is same-site when it has that
        page's site (scheme and registrable domain), cross-site otherwise
        """)
    static let navigation = Option("navigation", """
        a top-level navigation: cross-site, Lax cookies are still sent with a
        safe method (GET, HEAD) and may be set
        """)
    static let topLevel = Option("top-level", value: "URL", """
        the top-level page's URL (CHIPS): a Partitioned cookie is kept under its
        site (https://example.com) and sent only under it (default: the
        request's URL)
        """)
    static let rows: [Option] = [site, sameSite, crossSite, siteForCookies, navigation, topLevel]

    /// The context the flags give; a usage error of `command` names the flag at fault.
    static func context(_ parsed: Arguments, command: String) throws -> CookieJar.RequestContext {
        var context = CookieJar.RequestContext()
        let given = [parsed.has(site), parsed.has(sameSite), parsed.has(crossSite), parsed.has(siteForCookies)].filter { $0 }.count
        if given > 1 {
            throw UsageError(command: command, message: "give one of --site, --same-site, --cross-site and --site-for-cookies")
        }
        if let text = parsed.value(site) {
            guard let kind = CookieJar.RequestContext.Site(rawValue: text) else {
                throw UsageError(command: command, message: "--site takes same-site, cross-site-navigation or cross-site, not '\(text)'")
            }
            context.site = kind
        }
        context.navigation = parsed.has(navigation)
        if parsed.has(crossSite) { context.site = context.navigation ? .crossNavigation : .cross }
        if let page = parsed.value(siteForCookies) {
            do { context.siteForCookies = try RequestURL(page) } catch { throw UsageError(command: command, message: "--site-for-cookies: \(error)") }
        } else if context.navigation && !parsed.has(crossSite) {
            throw UsageError(command: command, message: "--navigation goes with --cross-site or --site-for-cookies URL")
        }
        if let top = parsed.value(topLevel) {
            do { context.topLevel = try RequestURL(top) } catch { throw UsageError(command: command, message: "--top-level: \(error)") }
        }
        return context
    }
}
