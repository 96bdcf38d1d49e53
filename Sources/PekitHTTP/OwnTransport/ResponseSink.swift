/// Where `ResponseReader` puts what it reads: the header lines (each with its line ending) and
/// the body's bytes (decoded). `Exchange` is the one every send uses (it builds the
/// `PekitResponse`, follows, keeps cookies); `LoadConnections` counts the bytes only. One reader,
/// libcurl's reading of the bytes, whoever takes them.
protocol ResponseSink: AnyObject {
    /// Where the reader reports what it reads, when it traces reads itself.
    var trace: ((SendOptions.TraceEvent, [UInt8]) -> Void)? { get }
    var tracesReads: Bool { get }
    /// The sink stopped the transfer while reading the head (its error is its own).
    var stopsAfterHead: Bool { get }
    /// The body of the response whose head just ended is dropped (a redirect that is followed).
    var discardBody: Bool { get }
    func headerLine(_ raw: UnsafeRawBufferPointer)
    /// Takes body bytes; false asks the reader to stop.
    func bodyBytes(_ raw: UnsafeRawBufferPointer) -> Bool
}

extension Exchange: ResponseSink {}
