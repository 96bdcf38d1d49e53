/// A JSONPath query as RFC 9535 defines it: `$.store.book[?@.price < 10].title`, with child and
/// descendant segments, name, wildcard, index, slice and filter selectors, and the five functions
/// of §2.4 (`length`, `count`, `match`, `search`, `value`), type-checked when the query is parsed.
///
/// Parsing is strict (the compliance suite's invalid selectors are all refused, naming the
/// offset); selecting never fails: what does not apply selects nothing.
public struct JSONPath: Sendable, CustomStringConvertible {
    /// The query as written.
    public let text: String
    let segments: [Segment]

    /// Parses `text`.
    /// - Throws: `JSONPath.ParseError` with the byte offset and the reason.
    public init(_ text: String) throws {
        self.text = text
        var parser = Parser(Array(text.utf8))
        segments = try parser.query()
    }

    public var description: String { text }

    /// Whether the query is singular (RFC 9535 §2.3.5.1: name and index selectors only, one a
    /// segment, no descendant segment): it selects at most one node, where any other query
    /// selects a node list, even of one node. A test compares a singular query's node, and any
    /// other query's list.
    public var isSingular: Bool { Query(relative: false, segments: segments).isSingular }

    /// The values the query selects from `document`, in the order RFC 9535 gives them, with no
    /// limit on the work: for queries and documents the caller trusts.
    /// Complexity: O(nodes visited); a descendant segment visits the whole subtree, and each
    /// filter nested in another multiplies the nodes visited.
    public func select(_ document: PekitValue) -> [PekitValue] {
        var unlimited = WorkBudget.unlimited
        return (try? select(document, budget: &unlimited)) ?? []
    }

    /// The values the query selects from `document`, each node visited and each step of a
    /// `match()` or `search()` charged to `budget`: what runs a stranger's query bounds it so.
    /// - Throws: `WorkBudget.Exceeded` when the budget runs out before the query is done.
    public func select(_ document: PekitValue, budget: inout WorkBudget) throws(WorkBudget.Exceeded) -> [PekitValue] {
        var walk = Walk(root: document, budget: budget)
        defer { budget = walk.budget }
        return try walk.apply(segments, to: [document])
    }

    /// How deep filter expressions may nest (parentheses, `!`, filters inside filters, function
    /// arguments): deeper is a parse error naming the depth, never a stack overflow.
    public static let maxNesting = 64

    /// Why a query does not parse, and where (a byte offset into it).
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        /// Where, as a 1-based offset in the expression.
        public let offset: Int
        /// What is wrong there.
        public let reason: String
        public var description: String { "JSONPath: at offset \(offset): \(reason)" }
    }

    // MARK: The query's parts

    struct Segment: Sendable {
        var descendant: Bool
        var selectors: [Selector]
    }

    indirect enum Selector: Sendable {
        case name(ByteString)
        case wildcard
        case index(Int64)
        case slice(start: Int64?, end: Int64?, step: Int64?)
        case filter(Logical)
    }

    /// A filter's logical expression (§2.3.5.1).
    indirect enum Logical: Sendable {
        case or([Logical])
        case and([Logical])
        case not(Logical)
        /// A query's nodes exist (a test of a filter query).
        case exists(Query)
        /// A function whose result is logical, or whose nodes must exist.
        case function(Function)
        case compare(Comparable, Comparison, Comparable)
    }

    enum Comparison: String, Sendable { case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=" }

    /// A query inside a filter: from the current node (`@`) or the root (`$`).
    struct Query: Sendable {
        var relative: Bool
        var segments: [Segment]
        /// Only name and index selectors, one a segment, no descendants (§2.3.5.1).
        var isSingular: Bool {
            segments.allSatisfy { segment in
                guard !segment.descendant, segment.selectors.count == 1 else { return false }
                switch segment.selectors[0] {
                case .name, .index: return true
                default: return false
                }
            }
        }
    }

    indirect enum Comparable: Sendable {
        case literal(PekitValue)
        case query(Query)
        case function(Function)
    }

    /// A function call, checked against the function's declared types (§2.4.3).
    struct Function: Sendable {
        var name: FunctionName
        var arguments: [Argument]
    }

    enum FunctionName: String, Sendable {
        case length, count, match, search, value
    }

    indirect enum Argument: Sendable {
        case literal(PekitValue)
        case query(Query)
        case function(Function)
        case logical(Logical)
    }
}
