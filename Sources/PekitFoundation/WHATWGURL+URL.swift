import Foundation
import PekitCore

extension URL {
    /// Foundation's URL for a URL parsed as browsers do: its `href`, which the URL Standard
    /// serializes with every character a URI may not hold percent-encoded, except a few it
    /// leaves (`|`, `^`, `` ` ``, `{`, `}` in some components) that Foundation then encodes.
    /// - Returns: nil when Foundation refuses the href.
    public init?(_ url: WHATWGURL) {
        self.init(string: url.href)
    }
}

extension WHATWGURL {
    /// Foundation's URL parsed again as browsers do (its `absoluteString`).
    /// - Throws: `WHATWGURL.ParseError` (a URL Foundation takes that the URL Standard refuses).
    public init(_ url: URL) throws {
        try self.init(url.absoluteString)
    }
}
