/// What a send's callbacks (progress, notices, trace) keep between calls, such as "warned once"
/// or the trace so far. The callbacks of one send run one at a time on the thread that drives it
/// (HTTPEngine's rule), and the caller reads the state after the send, so no lock is needed:
/// this says so to the compiler, which cannot see it.
package final class CallbackState<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
