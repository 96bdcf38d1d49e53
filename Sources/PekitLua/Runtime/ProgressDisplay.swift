import PekitHTTP

/// A display of transfers going on (the CLI's progress line on a terminal): a download's bytes,
/// a batch's counts, and the end of either.
public struct ProgressDisplay {
    public var download: (SendOptions.Progress) -> Void
    public var batch: (_ done: Int, _ failed: Int, _ inFlight: Int, _ total: Int, _ elapsed: Double) -> Void
    public var finish: () -> Void

    public init(download: @escaping (SendOptions.Progress) -> Void,
                batch: @escaping (_ done: Int, _ failed: Int, _ inFlight: Int, _ total: Int, _ elapsed: Double) -> Void,
                finish: @escaping () -> Void) {
        self.download = download; self.batch = batch; self.finish = finish
    }
}
