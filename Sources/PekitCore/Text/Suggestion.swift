/// "Did you mean …?": the name closest to a mistyped one, for error messages.
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours, case ignored), when it is near enough to be a typo: at most one edit
    /// for short words, a third of the word's length for longer ones. nil when none is, or when
    /// two are equally near.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased().utf8)
        guard !target.isEmpty else { return nil }
        let limit = max(1, target.count / 3)
        var best: (name: String, distance: Int)?
        var tie = false
        for candidate in candidates where candidate != word {
            let d = distance(target, Array(candidate.lowercased().utf8))
            guard d <= limit else { continue }
            if let b = best, d > b.distance { continue }
            tie = best.map { $0.distance == d && $0.name != candidate } ?? false
            best = (candidate, d)
        }
        return tie ? nil : best?.name
    }

    /// `message` with "; did you mean 'X'?" when a candidate is near `word`.
    public static func message(_ message: String, for word: String, among candidates: [String], quote: String = "'") -> String {
        guard let near = closest(to: word, among: candidates) else { return message }
        return message + "; did you mean \(quote)\(near)\(quote)?"
    }

    /// Optimal string alignment distance.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = Swift.min(current[j], previous2[j - 2] + 1) }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
