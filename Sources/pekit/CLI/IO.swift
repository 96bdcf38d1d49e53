#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writing of bytes to a file descriptor; raw bytes, never re-encoded.
final class Output {
    static let stdout = Output(fd: 1)
    static let stderr = Output(fd: 2)

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd; buffer.reserveCapacity(1 << 16) }

    func write<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(_ text: String) { write(text.utf8) }

    func line(_ text: String) { write(text.utf8); write(CollectionOfOne(0x0A)) }

    func flush() {
        fflush(nil)  // Lua's print writes through C stdio: keep the order of what users see
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads standard input as lines of bytes (split at LF, the LF removed, and a CR before it too
/// unless `keepCR`, as Python's text mode reads CRLF files), calling `body` for each; memory is
/// bounded by the longest line.
func forEachInputLine(keepCR: Bool = false, _ lineBody: ([UInt8], Int) throws -> Void) throws {
    try readLines { line, number in try lineBody(!keepCR && line.last == 0x0D ? Array(line.dropLast()) : line, number) }
}

private func readLines(_ body: ([UInt8], Int) throws -> Void) throws {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var lineNumber = 0
    while true {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw CommandFailure(message: "cannot read standard input: \(String(describing: strerror(errno).map { String(cString: $0) } ?? "error"))") }
        if n == 0 { break }
        var start = 0
        for i in 0..<n where chunk[i] == 0x0A {
            lineNumber += 1
            if pending.isEmpty {
                try body(Array(chunk[start..<i]), lineNumber)
            } else {
                pending.append(contentsOf: chunk[start..<i])
                try body(pending, lineNumber)
                pending.removeAll(keepingCapacity: true)
            }
            start = i + 1
        }
        pending.append(contentsOf: chunk[start..<n])
    }
    if !pending.isEmpty { lineNumber += 1; try body(pending, lineNumber) }
}

/// All of standard input, as bytes exactly.
func readAllInput() throws -> [UInt8] {
    var all: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw CommandFailure(message: "cannot read standard input (errno \(errno))") }
        if n == 0 { return all }
        all += chunk[0..<n]
    }
}
