/// How errors say what was expected, in the same words everywhere (Lua fields, server options,
/// the command line).

/// `"a", "b" or "c"`.
package func alternatives(_ names: [String]) -> String {
    let quoted = names.map { "\"\($0)\"" }
    guard quoted.count > 1 else { return quoted.joined() }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
}

/// `a whole number from 0 to 1000`, or `a whole number from 0` when there is no upper bound.
package func wholeNumber(in range: ClosedRange<Int64>) -> String {
    range.upperBound == .max ? "a whole number from \(range.lowerBound)" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
}
