#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files being written right now (`out.pekit-PID-XXXXXX` beside a file that will
/// appear complete or not at all), so that none is left behind when the process is stopped:
/// SIGINT, SIGTERM and SIGHUP remove them before the process ends the way the signal says.
/// A file left by a process that died otherwise (SIGKILL, a crash) is swept by the next write
/// to the same path (`sweep`).
public enum TemporaryFiles {
    /// Slots for paths, written by `register`/`unregister` under a mutex and read by the signal
    /// handler without one (it only unlinks what it finds: async-signal-safe).
    private static let capacity = 256
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    /// Notes a temporary file; returns its slot for `unregister` (nil when every slot is taken:
    /// the file is then only swept later).
    static func register(_ path: String) -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return i
        }
        return nil
    }

    /// Forgets a temporary file (renamed into place or removed).
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let path = slots[slot]
        slots[slot] = nil
        free(path)
    }

    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP (the CLI does, at start): each
    /// removes the temporary files, then ends the process as the signal would have.
    public static func removeOnSignals() {
        _ = slots
        _ = mutex
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                TemporaryFiles.removeAll()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    /// Holds SIGINT, SIGTERM and SIGHUP back in this thread until `restoreSignals`, for a file
    /// made and registered in two steps: one arriving between them is handled after the second.
    /// - Returns: the signal mask to restore.
    static func holdSignals() -> sigset_t {
        var set = sigset_t(), old = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_BLOCK, &set, &old)
        return old
    }

    /// Restores the mask `holdSignals` returned; a signal that arrived meanwhile is handled now.
    static func restoreSignals(_ mask: sigset_t) {
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// Unlinks every registered file (from the signal handler).
    static func removeAll() {
        for i in 0..<capacity { if let path = slots[i] { unlink(path) } }
    }

    /// The name of a new temporary file for `path`, `path.pekit-PID-XXXXXX`: the process id in
    /// it, so that a later writer knows whether its writer is still alive; six characters drawn
    /// at random (the file is made with O_EXCL, and another name drawn if it exists).
    static func uniqueName(for path: String) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return "\(path).pekit-\(getpid())-" + String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
    }

    /// Removes the temporary files of `path` whose writer process is gone (SIGKILL, a crash).
    static func sweep(_ path: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? "./"
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".pekit-"
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
                let bytes = raw.bindMemory(to: UInt8.self)
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + name) }
        }
    }
}
