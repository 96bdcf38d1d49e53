/// How a Cookie header lists the cookies a request gets.
public enum CookieHeaderRule: Sendable, Equatable {
    /// RFC 6265bis §5.8.3: longer paths first, then the older; every cookie that matches.
    case rfc6265
    /// curl's (7.88, `cookie.c` and `http.c`): the first 150 matching cookies in the order they
    /// were stored (`MAX_COOKIE_SEND_AMOUNT`), sorted by path length, then domain length, then
    /// name length, each longer first, then the newer first; and no pair that would take the
    /// header to 8,190 bytes or more (`MAX_COOKIE_HEADER_LEN`): the rest are not sent. curl's
    /// tests 420, 442, 443 and 1216 hold it.
    case curl

    /// curl's caps.
    static let curlMaxCookies = 150
    static let curlMaxHeader = 8190
}
