/// What users paste as "a query": the query itself, `?a=1`, or a whole URL (`https://h/p?a=1#f`,
/// `/p?a=1`). The query part is what a server reads.
public enum QueryInput {
    /// Where the query was found.
    public enum Source: Equatable, Sendable {
        /// The input was the query.
        case query
        /// The input started with `?`.
        case questionMark
        /// The input was a URL (or a path with a query).
        case url
    }

    /// The query part of `input`: after a leading `?` or after the first `?` of a URL, up to a
    /// `#`. A URL is text starting with a scheme and `://`, or a path (`/…`) with a `?`.
    public static func query(of input: [UInt8]) -> (query: ArraySlice<UInt8>, source: Source) {
        if input.first == 0x3F {
            let end = input.firstIndex(of: 0x23) ?? input.count
            return (input[1..<end], .questionMark)
        }
        guard isURL(input) else { return (input[...], .query) }
        let end = input.firstIndex(of: 0x23) ?? input.count
        guard let mark = input[..<end].firstIndex(of: 0x3F) else { return (input[end..<end], .url) }
        return (input[(mark + 1)..<end], .url)
    }

    static func isURL(_ input: [UInt8]) -> Bool {
        if input.first == 0x2F { return input.contains(0x3F) }
        guard let first = input.first, isLetter(first) else { return false }
        var i = 1
        while i < input.count, isLetter(input[i]) || (0x30...0x39).contains(input[i]) || input[i] == 0x2B || input[i] == 0x2D || input[i] == 0x2E { i += 1 }
        return input[i...].starts(with: [0x3A, 0x2F, 0x2F])
    }

    private static func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
}
