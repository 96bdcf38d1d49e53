/// A request body as pieces in memory and files on disk, read in order with bounded memory.
/// Both the curl rendering and sending use it, so a file part is never loaded whole.
public enum BodySegment: Equatable, Sendable {
    /// Bytes in memory.
    case bytes([UInt8])
    /// A file's bytes, read when reached.
    case file(String)
}

/// Reads a list of segments front to back into caller buffers (curl's read callback), opening
/// each file only when it is reached. `rewind()` starts over, for a body sent again after a
/// redirect or a retried connection.
public final class BodyStream {
    private let segments: [BodySegment]
    private var index = 0
    private var offset = 0
    private var file: FileReader?

    /// A stream over `segments`, in order.
    public init(_ segments: [BodySegment]) { self.segments = segments }

    /// Fills up to `capacity` bytes at `buffer`; 0 at the end of the body.
    /// - Throws: `RequestError.file` when a file cannot be opened or read.
    public func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        while index < segments.count {
            switch segments[index] {
            case .bytes(let bytes):
                if offset < bytes.count {
                    let n = min(capacity, bytes.count - offset)
                    bytes.withUnsafeBytes { raw in buffer.copyMemory(from: raw.baseAddress! + offset, byteCount: n) }
                    offset += n
                    return n
                }
            case .file(let path):
                let reader = try file ?? FileReader(path: path)
                file = reader
                let n = try reader.read(into: buffer, capacity: capacity)
                if n > 0 { return n }
                file = nil
            }
            index += 1; offset = 0
        }
        return 0
    }

    /// Starts again from the first byte.
    public func rewind() {
        file = nil
        index = 0; offset = 0
    }

    /// Streams every byte through `sink` in pieces of at most `chunkSize` bytes.
    public func write(chunkSize: Int = 1 << 16, to sink: ([UInt8]) throws -> Void) throws {
        // Not zeroed: an empty body (every GET) touches none of its pages.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return }
        while true {
            let n = try read(into: base, capacity: buffer.count)
            if n == 0 { return }
            try sink(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n])))
        }
    }

    /// The total length (file sizes from the file system).
    /// - Throws: `RequestError.file` for a file that cannot be examined.
    public static func length(of segments: [BodySegment]) throws -> Int {
        try segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let bytes): return total + bytes.count
            case .file(let path): return total + (try FileReader.length(of: path))
            }
        }
    }
}
