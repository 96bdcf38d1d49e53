import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// The thread behind `PekitClient`'s async sends: one `HTTPEngine` driven on a thread of its own,
/// so that awaiting a response never blocks a thread of Swift's cooperative pool. Tasks submit
/// sends from any thread; the engine runs them together (sharing connections) and each
/// completion resumes its task's continuation. A pipe wakes the engine's wait when a send is
/// submitted or cancelled. Callbacks in a send's options (sinks, progress, trace, jar filters)
/// run on this thread.
final class AsyncDriver: @unchecked Sendable {
    typealias Completion = @Sendable (Result<PekitResponse, Error>) -> Void
    private struct Submission {
        let request: PekitRequest
        let options: SendOptions
        let completion: Completion
    }

    // `queue` and `stopping` are shared with submitting threads, under `lock`; the engine is the
    // thread's alone.
    private let lock = RecursiveLock()
    private var queue: [Submission] = []
    private var stopping = false
    private let engine: HTTPEngine
    private let wakeRead: Int32, wakeWrite: Int32

    /// Starts the thread.
    /// - Throws: `HTTPError.setup` when no pipe or thread can be made (descriptors or threads
    ///   exhausted).
    init() throws {
        engine = try HTTPEngine()
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw HTTPError.setup("cannot make the async sender's pipe: \(cText(strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        engine.wakeDescriptor = wakeRead
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self)
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<AsyncDriver>.fromOpaque(raw!).takeRetainedValue().main()
            return nil
        }, retained.toOpaque())
        guard started == 0 else {
            retained.release()
            close(wakeRead); close(wakeWrite)
            throw HTTPError.setup("cannot start the async sender's thread: \(cText(strerror(started)))")
        }
        pthread_detach(thread)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Hands a send to the thread; `completion` is called there when it ends.
    func submit(_ request: PekitRequest, options: SendOptions, completion: @escaping Completion) {
        let accepted = lock.locked { () -> Bool in
            guard !stopping else { return false }
            queue.append(Submission(request: request, options: options, completion: completion))
            return true
        }
        if accepted { wake() } else { completion(.failure(HTTPError.setup("\(request.method) \(request.url): the client was shut down"))) }
    }

    /// Cuts the engine's current wait short (a send was submitted or cancelled).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes it
    }

    /// Lets the thread end once the sends it has are done.
    func stop() {
        lock.locked { stopping = true }
        wake()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func main() {
        while true {
            drain()
            let (taken, stop) = lock.locked { () -> ([Submission], Bool) in
                defer { queue = [] }
                return (queue, stopping)
            }
            for s in taken { engine.add(s.request, options: s.options, completion: s.completion) }
            if engine.pending == 0 {
                if stop { return }
                var wait = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
                _ = poll(&wait, 1, -1)
            } else {
                engine.step(timeout: 1)
            }
        }
    }
}

/// Set once, from any thread: the task behind an async send was cancelled.
final class CancellationFlag: @unchecked Sendable {
    private let lock = RecursiveLock()
    private var set = false
    var isSet: Bool { lock.locked { set } }
    func raise() { lock.locked { set = true } }
}
