#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations the core is asked to do: read a file, and replace one atomically.
public enum Files {
    /// The bytes of a file, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        let size = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        if case .bytes(let bytes) = readAll(fd, limit: .max, sizeHint: size) { return bytes }
        return nil
    }

    /// Everything `fd` gives until end of file, failing past `limit` bytes. `sizeHint` (what
    /// `stat` says, when it says) sizes the reads: a small script costs a small buffer, not 64 KB
    /// of zeroed pages at every start.
    private static func readAll(_ fd: Int32, limit: Int, sizeHint: Int = 0) -> BoundedRead {
        var out: [UInt8] = []
        out.reserveCapacity(sizeHint)
        let chunkSize = min(1 << 16, max(4096, sizeHint + 1))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = CLibrary.read(fd, chunk.baseAddress, chunkSize)
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return .failed(reason()) }
            if n == 0 { return .bytes(out) }
            guard out.count + n <= limit else { return .tooLarge }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
    }

    /// What reading a file with a size limit gave.
    public enum BoundedRead {
        /// The whole file.
        case bytes([UInt8])
        /// A device, FIFO, socket or directory (opened without blocking, then refused).
        case notRegular
        /// More than the limit: found while reading, whatever `stat` said (a file may grow).
        case tooLarge
        /// The system's reason.
        case failed(String)
    }

    /// The bytes of a regular file of at most `limit` bytes.
    public static func read(_ path: String, limit: Int) -> BoundedRead {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failed(reason()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(reason()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .notRegular }
        return readAll(fd, limit: limit, sizeHint: min(Int(info.st_size), limit))
    }

    /// Why a file operation failed.
    static func reason() -> String {
        String(decoding: UnsafeRawBufferPointer(start: strerror(errno), count: strlen(strerror(errno))), as: UTF8.self)
    }

    /// Replaces `path` with `bytes` so that a reader (or a crash) only ever sees the old file or
    /// the new one, complete: written to a temporary file beside it, flushed, renamed over it.
    /// An exclusive lock on `path.lock` keeps two writers from interleaving (the lock file is
    /// removed again when the lock is let go).
    /// A symbolic link is followed (the file it names is replaced, the link kept); a target that
    /// is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written directly.
    /// - Throws: `CookieError.file` naming the path and the system's reason.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let path = resolved(path)
        if isSpecial(path) {
            let writer = try AtomicWriter(path: path, mode: mode)
            try writer.write(bytes)
            try writer.commit()
            return
        }
        try withLock(path) {
            // A fresh file of a name nobody can guess (`path.pekit-PID-XXXXXX`, made with
            // O_EXCL|O_NOFOLLOW): a link or file planted beside the jar is never written through.
            // One left by a writer that was killed is swept by the next save.
            let writer = try AtomicWriter(path: path, mode: mode)
            do {
                try writer.write(bytes)
                try writer.commit()
            } catch {
                writer.abort()
                throw error
            }
        }
    }

    /// Runs `body` holding the exclusive lock on `path.lock` (`flock`), which every writer of
    /// `path` through pekit takes. Hold it across a whole read-change-write (load a jar, receive,
    /// save) so that processes updating one file at once merge their changes instead of each
    /// writing back what it read and losing the others'. Re-entrant within the process, so
    /// `writeAtomically` inside `body` does not wait for itself.
    /// - Throws: `CookieError.file` when the lock file cannot be made or locked; what `body` throws.
    public static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let lockPath = resolved(path) + ".lock"
        while true {
            // From making the lock file to registering it, a SIGTERM would leave it behind: such a
            // signal waits until it is registered (or, while another holder is waited for, whose
            // file it is, comes at once).
            let mask = TemporaryFiles.holdSignals()
            var holding = true
            func release() { if holding { TemporaryFiles.restoreSignals(mask); holding = false } }
            defer { release() }
            // O_NOFOLLOW: a link planted at the lock's name is refused, not followed to make
            // (or truncate) the file it names.
            let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard lock >= 0 else { throw CookieError.file(path: lockPath, reason: reason()) }
            // Known by the lock file's identity, not its name: "jar.txt" before the jar exists and
            // "/dir/jar.txt" after are one lock.
            var info = stat()
            guard fstat(lock, &info) == 0 else {
                let why = reason()
                close(lock)
                throw CookieError.file(path: lockPath, reason: why)
            }
            let key = "\(info.st_dev):\(info.st_ino)"
            if FileLocks.shared.enter(key) {
                close(lock)
                release()
                defer { FileLocks.shared.leave(key, fd: nil) }
                return try body()
            }
            if flock(lock, LOCK_EX | LOCK_NB) != 0 {
                release()
                while flock(lock, LOCK_EX) != 0 {
                    if errno != EINTR {
                        let why = reason()
                        close(lock)
                        FileLocks.shared.leave(key, fd: nil)
                        throw CookieError.file(path: lockPath, reason: "cannot lock: \(why)")
                    }
                }
                _ = TemporaryFiles.holdSignals() // returns `mask` again: it was restored
                holding = true
            }
            // The holder we waited for removes the lock file as it lets go, so the file locked may
            // be gone (or made anew) by now: only the one at the path counts. Try again on that.
            var current = stat()
            guard stat(lockPath, &current) == 0, current.st_dev == info.st_dev, current.st_ino == info.st_ino else {
                FileLocks.shared.leave(key, fd: lock)
                continue
            }
            // Removed while still held, so no lock file is left beside the jar; noted as a temporary
            // file meanwhile, so that SIGTERM and SIGHUP remove it too (SIGINT unwinds to here).
            let slot = TemporaryFiles.register(lockPath)
            release()
            defer {
                // Held again so that nothing comes between the two: a signal after the first
                // would leave the file, and after the second would remove another holder's.
                let mask = TemporaryFiles.holdSignals()
                TemporaryFiles.unregister(slot)
                FileLocks.shared.leave(key, fd: lock, removing: lockPath)
                TemporaryFiles.restoreSignals(mask)
            }
            return try body()
        }
    }
}

/// The lock files this process holds (by device and inode), with how many `withLock` calls are
/// inside each.
final class FileLocks: @unchecked Sendable {
    static let shared = FileLocks()
    private var depth: [String: Int] = [:]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    private init() { pthread_mutex_init(mutex, nil) }

    /// Counts one more holder; returns true when the process held the lock already.
    func enter(_ path: String) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let held = depth[path, default: 0] > 0
        depth[path, default: 0] += 1
        return held
    }

    /// Counts one holder less; the outermost one removes the lock file `removing` (when given,
    /// while still holding the lock), then unlocks and closes `fd`.
    func leave(_ path: String, fd: Int32?, removing lockPath: String? = nil) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        depth[path, default: 1] -= 1
        if depth[path] == 0 { depth[path] = nil }
        if let fd {
            if let lockPath { _ = unlink(lockPath) }
            _ = flock(fd, LOCK_UN)
            close(fd)
        }
    }
}

extension Files {
    /// Writes a file that appears complete or not at all: bytes go to a temporary file beside
    /// `path`, which `commit()` flushes and renames over it and `abort()` (or deinit) removes.
    public final class AtomicWriter {
        /// The file being written.
        public let path: String
        /// The temporary file beside it that is renamed over it.
        public let temporary: String
        private var fd: Int32
        /// The temporary file's slot in `TemporaryFiles` (removed on SIGINT/SIGTERM/SIGHUP).
        private var slot: Int?
        /// Bytes written so far.
        public private(set) var count = 0

        /// Opens the temporary file, a unique `path.pekit-PID-XXXXXX` made fresh (O_EXCL, and
        /// O_NOFOLLOW: never a link planted in its place), mode 0600 until `mode` is set on it.
        /// A symbolic link at `path` is followed (the file it names is replaced, the link kept);
        /// a target that is not a regular file (`/dev/null`, a FIFO) is written directly, since
        /// it cannot be replaced by renaming.
        /// - Throws: `CookieError.file` naming the path and the system's reason.
        public init(path: String, mode: mode_t = 0o644) throws {
            let path = Files.resolved(path)
            self.path = path
            if Files.isSpecial(path) {
                self.temporary = path
                fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            } else {
                // Registered before it is made (a name of our own, made exclusively), so that a
                // signal at any moment, on any thread, finds it: mkstemp's file would exist
                // unregistered for a moment, and a SIGTERM then left it behind.
                TemporaryFiles.sweep(path)
                var name = "", opened: Int32 = -1
                for _ in 0..<100 {
                    name = TemporaryFiles.uniqueName(for: path)
                    let registered = TemporaryFiles.register(name)
                    opened = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                    if opened >= 0 { fchmod(opened, mode); slot = registered; break }
                    let failure = errno
                    TemporaryFiles.unregister(registered)
                    errno = failure
                    if failure != EEXIST { break }
                }
                fd = opened
                self.temporary = name
            }
            guard fd >= 0 else {
                let failure = reason()
                TemporaryFiles.unregister(slot)
                slot = nil
                throw CookieError.file(path: path, reason: failure)  // the user's name, not the temporary one's
            }
        }

        deinit { abort() }

        /// Appends `bytes`.
        public func write(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try write($0) }
        }

        /// Appends the bytes at `raw`.
        public func write(_ raw: UnsafeRawBufferPointer) throws {
            guard fd >= 0 else { throw CookieError.file(path: path, reason: "already closed") }
            var written = 0
            while written < raw.count {
                let n = CLibrary.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; throw CookieError.file(path: path, reason: reason()) }
                written += n
            }
            count += raw.count
        }

        /// Flushes the file and renames it over `path`.
        public func commit() throws {
            guard fd >= 0 else { throw CookieError.file(path: path, reason: "already closed") }
            if temporary == path { close(fd); fd = -1; return }
            let synced = fsync(fd) == 0
            let failure = synced ? nil : reason()
            close(fd); fd = -1
            defer { TemporaryFiles.unregister(slot); slot = nil }
            if let failure { unlink(temporary); throw CookieError.file(path: path, reason: failure) }
            guard rename(temporary, path) == 0 else {
                let failure = reason()
                unlink(temporary)
                throw CookieError.file(path: path, reason: failure)
            }
        }

        /// Removes the temporary file; `path` is untouched.
        public func abort() {
            guard fd >= 0 else { return }
            close(fd); fd = -1
            if temporary != path { unlink(temporary) }
            TemporaryFiles.unregister(slot)
            slot = nil
        }
    }
}

extension Files {
    /// `path` with symbolic links resolved when it exists (so renaming replaces the file, not the link).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(decoding: UnsafeRawBufferPointer(start: real, count: strlen(real)), as: UTF8.self)
    }

    /// The size of a regular file, or nil.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` exists and is not a regular file (a device, a FIFO, a socket).
    static func isSpecial(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    }
}

