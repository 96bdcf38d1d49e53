/// A server-sent event: what the HTML Standard's `EventSource` dispatches.
public struct ServerSentEvent: Equatable, Sendable, CustomStringConvertible {
    /// The event's type: its `event:` field, or `message`.
    public var type: String
    /// Its `data:` lines, joined with line feeds.
    public var data: String
    /// The last event ID at the time it was dispatched (an `id:` field stays in force for the
    /// events after it until another changes it), as `MessageEvent.lastEventId`.
    public var lastEventId: String

    /// An event of `type` with `data` and the `lastEventId` then in force.
    public init(type: String = "message", data: String, lastEventId: String = "") {
        self.type = type; self.data = data; self.lastEventId = lastEventId
    }

    public var description: String { "\(type) \(lastEventId.isEmpty ? "" : "#\(lastEventId) ")\(data.debugDescription)" }
}

/// The event-stream parser of the HTML Standard (§9.2.6, "Interpreting an event stream"), fed
/// the body in chunks as they arrive: UTF-8 with one leading BOM ignored and bad bytes replaced,
/// lines ended by CR LF, LF or CR (a CR LF split between two chunks is one line end), `:`
/// comments, `event`, `data`, `id` (one holding NUL is ignored) and `retry` (digits only)
/// fields, other fields ignored, an event dispatched at each empty line when it has data, and an
/// incomplete event at the end of the stream discarded.
///
/// ```swift
/// var stream = EventStream()
/// for event in stream.feed(chunk) { … }
/// ```
/// - Complexity: O(bytes fed); a line is held until it ends, up to `maxLineBytes`.
public struct EventStream: Sendable {
    /// The longest line held (a server that never ends one cannot fill the memory): past it, the
    /// line's further bytes are dropped.
    public var maxLineBytes = 1 << 20
    /// The reconnection time the stream last asked for (`retry:`), in milliseconds.
    public private(set) var retry: Int?
    /// The last event ID in force: what a reconnection sends as `Last-Event-ID` (an `id:`
    /// field counts from the empty line after it, so one in an event the stream never ended
    /// does not).
    public private(set) var lastEventId: String

    private var idBuffer: String
    private var line: [UInt8] = []
    private var afterCR = false
    /// How many bytes of a leading BOM (EF BB BF) have come; nil once the stream's start is past.
    private var bomSeen: Int? = 0
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var eventType = ""
    private var data = ""

    /// A parser at the start of a stream; `lastEventId` is the ID a reconnection resumes from.
    public init(lastEventId: String = "") { self.lastEventId = lastEventId; idBuffer = lastEventId }

    /// Reads `chunk` and returns the events it completed, in order.
    public mutating func feed<Bytes: Sequence>(_ chunk: Bytes) -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if let seen = bomSeen {
                // The stream's first bytes: EF BB BF is a BOM, dropped; anything else is text.
                if byte == Self.bom[seen] {
                    bomSeen = seen == 2 ? nil : seen + 1
                    continue
                }
                bomSeen = nil
                for b in Self.bom[..<seen] { take(b, &events) }
            }
            take(byte, &events)
        }
        return events
    }

    /// The end of the stream: a line not ended and an event not ended by an empty line are
    /// discarded (as the standard says: "any pending data must be discarded").
    public mutating func finish() {
        // A stream's end is no line end: an unfinished line is not read (a `retry:` in it
        // counts no more than a `data:`), and the event it was part of is dropped.
        bomSeen = nil
        line.removeAll()
        eventType = ""; data = ""; idBuffer = lastEventId
    }

    private mutating func take(_ byte: UInt8, _ events: inout [ServerSentEvent]) {
        switch byte {
        case 0x0A:
            if afterCR { afterCR = false; return }
            endLine(&events)
        case 0x0D:
            afterCR = true
            endLine(&events)
        default:
            afterCR = false
            if line.count < maxLineBytes { line.append(byte) }
        }
    }

    private mutating func endLine(_ events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { dispatch(&events); return }
        if line[0] == 0x3A { return }  // a comment
        let colon = line.firstIndex(of: 0x3A)
        let field = String(decoding: line[..<(colon ?? line.count)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.count
        if valueStart < line.count, line[valueStart] == 0x20 { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event": eventType = value
        case "data":
            data += value
            data += "\n"
        case "id": if !value.utf8.contains(0) { idBuffer = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { retry = Int(value) ?? Int.max }
        default: break
        }
    }

    private mutating func dispatch(_ events: inout [ServerSentEvent]) {
        defer { eventType = ""; data = "" }
        lastEventId = idBuffer
        guard !data.isEmpty else { return }
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventId: lastEventId))
    }
}
