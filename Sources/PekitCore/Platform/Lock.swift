#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recursive mutex (pthread's): what makes a `CookieJar` safe to share between threads and
/// tasks. Recursive because a jar's filters and clock run inside its operations and may read the
/// jar again on the same thread. Standard library `Mutex` would need macOS 15.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) package func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) package func unlock() { pthread_mutex_unlock(mutex) }
    /// Takes the lock when no other thread holds it; false at once otherwise.
    @inline(__always) package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// `body` with the lock held.
    @inline(__always)
    package func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
