#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read front to back in pieces (a request body's file part streamed from disk), closed
/// when released.
final class FileReader {
    let path: String
    private let fd: Int32

    /// Opens `path` for reading.
    /// - Throws: `RequestError.file` with the system's reason.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RequestError.file(path: path, reason: Files.reason()) }
    }

    deinit { close(fd) }

    /// Fills up to `capacity` bytes at `buffer`; 0 at the end of the file.
    /// - Throws: `RequestError.file` when the file cannot be read.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        while true {
            let n = CLibrary.read(fd, buffer, capacity)
            if n >= 0 { return n }
            if errno != EINTR { throw RequestError.file(path: path, reason: Files.reason()) }
        }
    }

    /// The size of the file at `path`, by the file system.
    /// - Throws: `RequestError.file` for a file that cannot be examined.
    static func length(of path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw RequestError.file(path: path, reason: Files.reason()) }
        return Int(info.st_size)
    }
}
