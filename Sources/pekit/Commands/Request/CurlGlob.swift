/// curl 7.88's URL globbing (`tool_urlglob.c`): a URL with lists (`{a,b}`) and ranges (`[1-5]`,
/// `[01-10]`, `[a-z:2]`) is several URLs, the rightmost glob turning fastest, and an `-o` name's
/// `#N` is the Nth glob's value for each (a `#N` past the globs stays as written). What is not a
/// glob stays as it is, with its brackets and braces escaped (`\[`), which `curlGlobbed` then
/// reads back as curl hands them on.
enum CurlGlob {
    /// One URL of the expansion, and each glob's value in it.
    struct Expansion: Equatable {
        var url: String
        var values: [String]
    }

    /// curl's limit on the URLs one glob makes is its memory's; pekit's is this many.
    static let maximum = 100_000

    /// The URLs `url` stands for.
    /// - Throws: `CommandFailure` (exit 3, as curl) for a glob curl cannot read; `UsageError`
    ///   past `maximum` URLs.
    static func expand(_ url: String) throws -> [Expansion] {
        let chars = Array(url)
        guard chars.contains(where: { "[]{}".contains($0) }) else { return [Expansion(url: url, values: [])] }
        var pieces: [[String]] = []  // each: one literal (count 1, not a glob) or a glob's values
        var isGlob: [Bool] = []
        var literal = ""
        var i = 0
        func malformed(_ what: String) -> CommandFailure {
            CommandFailure(message: "pekit request: \(what) in the URL at character \(i + 1), as curl's globbing reads it: -g/--globoff sends brackets and braces as written (\\[ and \\{ write one)", status: 3)
        }
        func flush() { if !literal.isEmpty { pieces.append([literal]); isGlob.append(false); literal = "" } }
        func escaped(_ c: Character) -> String { "[]{}".contains(c) ? "\\" + String(c) : String(c) }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "[]{}".contains(chars[i + 1]) {
                literal += escaped(chars[i + 1]); i += 2; continue
            }
            switch c {
            case "{":
                guard let close = chars[(i + 1)...].firstIndex(of: "}") else { throw malformed("an unmatched brace") }
                let inside = chars[(i + 1)..<close]
                if inside.contains("[") || inside.contains("{") { throw malformed("a nested brace") }
                flush()
                pieces.append(String(inside).split(separator: ",", omittingEmptySubsequences: false).map { String($0).map(escaped).joined() })
                isGlob.append(true)
                i = close + 1
            case "[" where i + 1 < chars.count && chars[i + 1] == "]":
                literal += "\\[\\]"; i += 2
            case "[":
                guard let close = chars[(i + 1)...].firstIndex(of: "]") else { throw malformed("a bad range specification") }
                let inside = String(chars[(i + 1)..<close])
                // curl's peek_ipv6: alphanumerics, '.', '%' and two colons or more: no glob.
                if inside.filter({ $0 == ":" }).count >= 2, inside.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".%:".contains($0)) }) {
                    literal += "\\[" + inside + "\\]"; i = close + 1; continue
                }
                guard let values = range(inside) else { throw malformed("a bad range specification") }
                flush()
                pieces.append(values)
                isGlob.append(true)
                i = close + 1
            case "]", "}":
                throw malformed("an unmatched close brace or bracket")
            default:
                literal.append(c); i += 1
            }
        }
        flush()
        let total = pieces.reduce(1) { $0.multipliedReportingOverflow(by: $1.count).overflow ? Int.max : $0 * $1.count }
        guard total <= maximum else {
            throw UsageError(command: "request", message: "the URL's globs make \(total == Int.max ? "too many" : String(total)) URLs, more than the \(maximum) pekit sends from one")
        }
        // The rightmost glob turns fastest, as an odometer.
        var out: [Expansion] = []
        var index = [Int](repeating: 0, count: pieces.count)
        for _ in 0..<total {
            var url = "", values: [String] = []
            for (n, piece) in pieces.enumerated() {
                url += piece[index[n]]
                if isGlob[n] { values.append(piece[index[n]].replacingOccurrences(of: "\\", with: "")) }
            }
            out.append(Expansion(url: url, values: values))
            var n = pieces.count - 1
            while n >= 0 {
                index[n] += 1
                if index[n] < pieces[n].count { break }
                index[n] = 0
                n -= 1
            }
        }
        return out
    }

    /// A range's values: `N-M` of numbers (padded with zeros to the first's width when it
    /// starts with 0) or of single letters of one case, with `:STEP`; nil for anything else.
    static func range(_ text: String) -> [String]? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        var step: Int64 = 1
        if parts.count == 2 {
            guard let s = Int64(parts[1]), s > 0 else { return nil }
            step = s
        }
        let ends = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else { return nil }
        if ends[0].allSatisfy(\.isNumber), ends[1].allSatisfy(\.isNumber), let low = Int64(ends[0]), let high = Int64(ends[1]), low <= high {
            let pad = ends[0].first == "0" ? ends[0].count : 0
            var out: [String] = [], n = low
            while n <= high {
                let digits = String(n)
                out.append(String(repeating: "0", count: max(0, pad - digits.count)) + digits)
                if out.count > maximum { return out }
                let (next, overflow) = n.addingReportingOverflow(step)
                if overflow { break }
                n = next
            }
            return out
        }
        guard ends[0].count == 1, ends[1].count == 1, let a = ends[0].unicodeScalars.first, let b = ends[1].unicodeScalars.first, a.isASCII, b.isASCII,
              (("a"..."z").contains(a) && ("a"..."z").contains(b)) || (("A"..."Z").contains(a) && ("A"..."Z").contains(b)), a.value <= b.value else { return nil }
        return stride(from: a.value, through: b.value, by: Int(step)).compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
    }

    /// An `-o` name for one URL of a glob: each `#N` (1-based) the Nth glob's value.
    static func outputName(_ pattern: String, values: [String]) -> String {
        let chars = Array(pattern)
        var out = "", i = 0
        while i < chars.count {
            if chars[i] == "#", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isNumber {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                if let n = Int(String(chars[(i + 1)..<j])), n >= 1, n <= values.count {
                    out += values[n - 1]; i = j; continue
                }
            }
            out.append(chars[i]); i += 1
        }
        return out
    }
}
