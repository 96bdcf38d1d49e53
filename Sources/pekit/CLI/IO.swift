#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PekitCore

/// Buffered writing of bytes to a file descriptor; raw bytes, never re-encoded.
final class Output {
    static let stdout = Output(fd: 1)
    static let stderr = Output(fd: 2)

    private let fd: Int32
    /// A fixed buffer written out when full: line mode writes straight into it.
    private let capacity = 1 << 18
    private let storage: UnsafeMutablePointer<UInt8>
    private var count = 0

    init(fd: Int32) {
        self.fd = fd
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    func write<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ write(buffer: $0) }) { return done }
        for b in bytes {
            if count == capacity { flush() }
            storage[count] = b
            count += 1
        }
    }

    func write(buffer bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { flush() }
        if bytes.count > capacity { writeOut(UnsafeRawPointer(base), bytes.count); return }
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Lets `body` write at most `maximum` bytes straight into the buffer; it returns how many
    /// it wrote. Nil when `maximum` is more than the buffer holds (write another way).
    @inline(__always)
    func write(reserving maximum: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Void? {
        guard maximum <= capacity else { return nil }
        if count + maximum > capacity { flush() }
        count += body(UnsafeMutableBufferPointer(start: storage + count, count: maximum))
        return ()
    }

    func write(_ text: String) { write(text.utf8) }

    func line(_ text: String) { write(text.utf8); write(CollectionOfOne(0x0A)) }

    func flush() {
        fflush(nil)  // Lua's print writes through C stdio: keep the order of what users see
        writeOut(UnsafeRawPointer(storage), count)
        count = 0
    }

    private func writeOut(_ base: UnsafeRawPointer, _ total: Int) {
        var offset = 0
        while offset < total {
            let n = Glibc.write(fd, base + offset, total - offset)
            if n < 0 { if errno == EINTR { continue }; break }
            offset += n
        }
    }
}

/// Reads standard input as lines of bytes (split at LF, the LF removed, and a CR before it too
/// unless `keepCR`, as Python's text mode reads CRLF files), calling `body` for each; memory is
/// bounded by the longest line.
func forEachInputLine(keepCR: Bool = false, _ lineBody: ([UInt8], Int) throws -> Void) throws {
    try forEachInputLineBuffer(keepCR: keepCR) { line, number in try lineBody(Array(line), number) }
}

/// `forEachInputLine` without a copy: each line is lent in place (valid during the call), so
/// line mode allocates nothing per line.
@inline(__always)
func forEachInputLineBuffer(keepCR: Bool = false, _ lineBody: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
    func deliver(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws {
        if !keepCR, line.last == 0x0D { try lineBody(UnsafeBufferPointer(rebasing: line.dropLast()), number) } else { try lineBody(line, number) }
    }
    var pending: [UInt8] = []
    let chunkSize = 1 << 18
    let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    defer { chunk.deallocate() }
    var lineNumber = 0
    while true {
        let n = read(0, chunk, chunkSize)
        if n < 0 { if errno == EINTR { continue }; throw CommandFailure(message: "cannot read standard input: \(strerror(errno).map { cText($0) } ?? "error")") }
        if n == 0 { break }
        var start = 0
        while start < n, let found = memchr(chunk + start, 0x0A, n - start) {
            let end = chunk.distance(to: found.assumingMemoryBound(to: UInt8.self))
            lineNumber += 1
            if pending.isEmpty {
                try deliver(UnsafeBufferPointer(start: chunk + start, count: end - start), lineNumber)
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(start: chunk + start, count: end - start))
                try pending.withUnsafeBufferPointer { try deliver($0, lineNumber) }
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        pending.append(contentsOf: UnsafeBufferPointer(start: chunk + start, count: n - start))
    }
    if !pending.isEmpty { lineNumber += 1; try pending.withUnsafeBufferPointer { try deliver($0, lineNumber) } }
}

/// What a pasted command's shell gives its standard input (`< file`, a here-document, `echo … |`),
/// read in place of the process's own by `readAllInput`, once (`pekit import curl --send`).
enum StandardInput {
    nonisolated(unsafe) static var replacement: [UInt8]?
}

/// All of standard input, as bytes exactly (`StandardInput.replacement`'s when one is set: once,
/// as a stream is read once).
func readAllInput() throws -> [UInt8] {
    if let replacement = StandardInput.replacement {
        StandardInput.replacement = []
        return replacement
    }
    var all: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw CommandFailure(message: "cannot read standard input (errno \(errno))") }
        if n == 0 { return all }
        all += chunk[0..<n]
    }
}
