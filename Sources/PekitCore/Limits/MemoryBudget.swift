/// What work done on a caller's behalf may allocate, charged as it grows: the Lua host sets one
/// for each call a script makes, so that a short input that would make a huge value (a sparse
/// list a million long, a tree of them) stops at the script's memory cap while it is being made,
/// not after. Work with no budget set (Swift callers) is never stopped.
///
/// Charges are made where memory grows out of proportion to the input, or in bulk: a list made
/// at a length its input names, an output buffer sized for its worst case. O(1) a charge.
///
/// The seam, in one place each side. The budget is set by `with(_:_:)`: the Lua host wraps
/// every call a script makes into pekit (PekitLua's `LuaFunction.swift`, the trampoline), with
/// the script's memory cap as the account; nothing else in pekit sets one. It is charged, in
/// the core, by the calls whose doc comments say `MemoryBudget.Exceeded`: `Policy.pairs(_:)`
/// and `Policy.queryString(_:)` (a long key over many items), and `QueryServer.read(_:)` (qs's
/// sparse lists, the trees of the server models); in the host, by its conversions of Lua
/// values. A Swift caller that wants a cap on those calls sets its own account with `with`.
public enum MemoryBudget {
    /// The budget ran out: the work stopped. The caller says so in its own words (the Lua host
    /// raises its memory error).
    public struct Exceeded: Error, CustomStringConvertible {
        /// The error.
        public init() {}
        public var description: String { "not enough memory (the work would pass its memory limit)" }
    }

    /// A budget: charged `bytes`, says whether the work may go on.
    public final class Account {
        let charge: (Int) -> Bool
        /// A budget that asks `charge` for each allocation's bytes; false stops the work.
        public init(_ charge: @escaping (Int) -> Bool) { self.charge = charge }
    }

    private static let current = ThreadLocal<Account>()

    /// Runs `body` with `account` as this thread's budget (the previous one again after).
    public static func with<T, E: Error>(_ account: Account, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = current.value
        current.value = account
        defer { current.value = previous }
        return try body()
    }

    /// Charges `bytes` to this thread's budget; false once it ran out (the work must stop).
    @inline(__always)
    public static func allows(_ bytes: Int) -> Bool {
        guard let account = current.value else { return true }
        return account.charge(max(0, bytes))
    }

    /// Charges `bytes`; throws `Exceeded` once the budget ran out.
    @inline(__always)
    public static func charge(_ bytes: Int) throws(Exceeded) {
        if !allows(bytes) { throw Exceeded() }
    }

    /// Charges `count` values of type `T` (a list made at a length its input names).
    @inline(__always)
    public static func charge<T>(_ count: Int, of type: T.Type) throws(Exceeded) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        try charge(overflow ? Int.max : bytes)
    }
}
