/// How many steps of work a call may take, given to the work explicitly: a JSONPath query's
/// node visits and regular-expression steps are charged to it one by one, so that a hostile
/// query (filters nested three deep over a long list, a pattern run over a long string) stops
/// with an error rather than running for hours. The Lua host gives a plugin's call what is left
/// of the plugin's instruction budget; a Swift caller gives what it likes (`unlimited` by default).
///
/// `shouldStop`, when set, is asked every `checkEvery` steps whether the work must end anyway
/// (a wall-clock limit passed, Ctrl-C came): the clock is not read on every step.
public struct WorkBudget {
    /// Steps left; the work stops when a charge would take it below zero.
    public private(set) var remaining: Int
    /// The steps the budget started with.
    public let limit: Int
    let shouldStop: (() -> Bool)?
    var untilCheck: Int
    /// Steps between questions to `shouldStop`.
    public static let checkEvery = 4096

    /// A budget of `steps`; `shouldStop` is asked now and then whether to end early.
    public init(steps: Int, shouldStop: (() -> Bool)? = nil) {
        remaining = max(0, steps)
        limit = remaining
        self.shouldStop = shouldStop
        untilCheck = Self.checkEvery
    }

    /// No limit and no question: what a Swift caller that trusts its input gets.
    public static var unlimited: WorkBudget { WorkBudget(steps: .max) }

    /// The steps taken so far.
    public var spent: Int { limit - remaining }

    /// Charges `steps`. O(1).
    /// - Throws: `Exceeded` when the steps are not left, or `shouldStop` said to stop.
    @inline(__always)
    public mutating func spend(_ steps: Int = 1) throws(Exceeded) {
        let steps = max(0, steps)
        guard steps <= remaining else {
            remaining = 0
            throw Exceeded(limit: limit, stopped: false)
        }
        remaining -= steps
        untilCheck -= steps
        if untilCheck <= 0 {
            untilCheck = Self.checkEvery
            if let shouldStop, shouldStop() { throw Exceeded(limit: limit, stopped: true) }
        }
    }

    /// The work was stopped: its steps ran out, or it was told to stop.
    public struct Exceeded: Error, CustomStringConvertible, Equatable, Sendable {
        /// The steps the budget allowed.
        public let limit: Int
        /// Whether it was stopped from outside (a time limit, Ctrl-C) rather than by its steps.
        public let stopped: Bool
        public var description: String {
            stopped ? "the work was stopped (a time limit or an interrupt)" : "the work took more than its \(limit) steps"
        }
    }
}
