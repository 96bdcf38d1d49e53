import CLua
import CLuaShim
import PekitHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A coroutine `pekit.spawn` started, and where it is.
final class LuaTask {
    enum State {
        /// Ready to run; `push` puts what it is resumed with on its stack and counts it.
        case runnable(push: (LuaRuntime) -> Int32)
        case running
        /// Suspended in a pekit call (a transfer, a sleep, a wait) until it is woken.
        case waiting
        case done
        case failed
    }

    let id: Int
    let thread: OpaquePointer
    /// Anchors the coroutine in the registry while it can still run.
    var threadRef: Int32
    var state: State
    /// Its results as a table `{n = count, …}`, or its error value (a registry reference).
    var resultRef: Int32 = LUA_NOREF
    /// Its error as text, and the coroutine's traceback.
    var errorText = ""
    var traceback = ""
    /// Tasks in `pekit.wait` for this one (and maybe others).
    var waiters: [LuaTask] = []
    /// How a waiting task is woken when all it waits for are over.
    var onUnblocked: (() -> Void)?
    /// The script dropped its handle: the entry goes when the task is over.
    var orphaned = false
    /// pekit.wait has given its outcome to the script (a failure nobody saw is reported at the end).
    var observed = false
    /// Waits whose outcome will read this task's result: it is kept for them even when the
    /// script's handle is collected meanwhile (a waiting coroutine holds no handle on its stack).
    var pins = 0
    /// Tasks this one still waits for (`blockedOn`, counted: a task waiting for many is woken
    /// in O(1) per task that ends, not by searching the list each time).
    var pendingCount = 0

    var failedUnseen: Bool {
        if case .failed = state { return !observed }
        return false
    }

    /// Whether its entry and result can go: over, any failure seen, and no wait still to read it.
    var releasable: Bool { isOver && !failedUnseen && pins == 0 }

    init(id: Int, thread: OpaquePointer, threadRef: Int32, arguments: Int32) {
        self.id = id; self.thread = thread; self.threadRef = threadRef
        state = .runnable { _ in arguments }
    }

    var isOver: Bool {
        switch state {
        case .done, .failed: return true
        default: return false
        }
    }
}

/// Runs `pekit.spawn`'s tasks on one thread: a task runs until it calls a pekit function that
/// waits (a transfer, `pekit.sleep`, `pekit.wait`), which suspends it; the transfers of every
/// suspended task go on together in the runtime's `HTTPEngine`, and a task is resumed when what
/// it waits for is over.
final class TaskScheduler {
    private(set) var tasks: [Int: LuaTask] = [:]
    private var byThread: [OpaquePointer: LuaTask] = [:]
    private var runnable: [LuaTask] = []
    private var runnableHead = 0
    private var sleepers: [(until: Double, task: LuaTask)] = []
    /// Work due at a time (an event stream's reconnection), run by the loop like a sleeper's wake.
    private var timers: [(at: Double, run: () -> Void)] = []
    private(set) var isRunning = false
    /// Tasks not yet over: "wait for every task" asks this, not each task.
    private(set) var unfinished = 0
    /// How many times a wait asked whether a task is over (what a test holds to O(tasks)).
    var inspections = 0

    func add(_ task: LuaTask) {
        unfinished += 1
        tasks[task.id] = task
        byThread[task.thread] = task
        runnable.append(task)
    }

    /// The task whose coroutine is `L`, when it is running and may be suspended here (not inside
    /// a metamethod or a C function that cannot yield, and not a coroutine of its own).
    func suspendable(_ L: OpaquePointer) -> LuaTask? {
        guard let task = byThread[L], case .running = task.state, lua_isyieldable(L) != 0 else { return nil }
        return task
    }

    /// The unfinished task whose coroutine is `L`, if any.
    func task(on L: OpaquePointer) -> LuaTask? { byThread[L] }

    /// Makes a waiting task runnable; `push` gives it what its pekit call returns.
    func wake(_ task: LuaTask, push: @escaping (LuaRuntime) -> Int32) {
        task.state = .runnable(push: push)
        runnable.append(task)
    }

    /// Suspends `task` until `seconds` have passed.
    func sleep(_ task: LuaTask, seconds: Double) {
        task.state = .waiting
        sleepers.append((PekitClient.now() + seconds, task))
    }

    /// Runs `work` once `seconds` have passed, from the loop (`run`), whichever task is waiting.
    func after(_ seconds: Double, _ work: @escaping () -> Void) {
        timers.append((PekitClient.now() + seconds, work))
    }

    /// Suspends `task` until every one of `others` is over, then calls `then` (which wakes it).
    func block(_ task: LuaTask, on others: [LuaTask], then: @escaping () -> Void) {
        let pending = others.filter { !$0.isOver }
        task.state = .waiting
        if pending.isEmpty { return then() }
        task.pendingCount = pending.count
        task.onUnblocked = then
        for other in pending { other.waiters.append(task) }
    }

    /// Keeps each of `tasks`' results until `unpin` (a wait that will read them).
    func pin(_ tasks: [LuaTask]) { for task in tasks { task.pins += 1 } }

    /// A wait has read `tasks`' results: those whose handle is gone can go now.
    func unpin(_ tasks: [LuaTask], runtime: LuaRuntime) {
        for task in tasks {
            task.pins -= 1
            if task.orphaned { release(task, runtime) }
        }
    }

    func forget(_ id: Int, runtime: LuaRuntime) {
        guard let task = tasks[id] else { return }
        task.orphaned = true
        release(task, runtime)
    }

    /// Lets an orphaned task's entry and result go once nothing can read them.
    private func release(_ task: LuaTask, _ runtime: LuaRuntime) {
        guard task.releasable, tasks[task.id] === task else { return }
        runtime.releaseReference(task.resultRef)
        task.resultRef = LUA_NOREF
        tasks[task.id] = nil
    }

    struct Deadlock: Error, CustomStringConvertible {
        let description = "every task left waits for another (nothing can go on)"
    }

    /// Runs tasks, transfers and timers until `done` says so, `deadline` passes, or Ctrl-C.
    /// - Throws: `Deadlock` when nothing can go on and `done` is still false.
    func run(_ runtime: LuaRuntime, until done: () -> Bool, deadline: Double? = nil) throws {
        isRunning = true
        defer { isRunning = false }
        while true {
            // Made by the first transfer, which a task may start.
            let engine = HTTPModule.state(runtime).client?.engine
            if pekit_interrupt_pending() != 0 {
                // Every transfer sees Ctrl-C and ends (a partial file is removed).
                engine?.run { false }
                return
            }
            if done() { return }
            if runnableHead < runnable.count {
                let task = runnable[runnableHead]
                runnableHead += 1
                if runnableHead > 1024 && runnableHead * 2 > runnable.count {
                    runnable.removeFirst(runnableHead)
                    runnableHead = 0
                }
                resume(task, runtime)
                continue
            }
            let now = PekitClient.now()
            if !sleepers.isEmpty {
                var still: [(until: Double, task: LuaTask)] = []
                for sleeper in sleepers {
                    if sleeper.until <= now { wake(sleeper.task) { $0.stack.push(bool: true); return 1 } } else { still.append(sleeper) }
                }
                sleepers = still
                if runnableHead < runnable.count { continue }
            }
            if !timers.isEmpty {
                let due = timers.filter { $0.at <= now }
                timers.removeAll { $0.at <= now }
                for timer in due { timer.run() }
                if !due.isEmpty { continue }
            }
            if let deadline, now >= deadline { return }
            var wait = 1.0
            if let soonest = sleepers.map(\.until).min() { wait = min(wait, soonest - now) }
            if let soonest = timers.map(\.at).min() { wait = min(wait, soonest - now) }
            if let deadline { wait = min(wait, deadline - now) }
            if let engine, engine.pending > 0 {
                engine.step(timeout: max(0, wait))
            } else if !sleepers.isEmpty || !timers.isEmpty || deadline != nil {
                var t = timespec(tv_sec: 0, tv_nsec: Int(min(max(0, wait), 0.05) * 1e9))
                nanosleep(&t, nil)
            } else {
                throw Deadlock()
            }
        }
    }

    /// Runs `task` until it yields or ends.
    private func resume(_ task: LuaTask, _ runtime: LuaRuntime) {
        guard case .runnable(let push) = task.state else { return }
        let co = task.thread
        let previous = runtime.L
        var results: Int32 = 0
        // What the task is resumed with comes into its coroutine as a call's results do.
        let count = runtime.enter(co, name: "pekit.wait") { push(runtime) }
        // Over the memory cap, the task fails with the error enter left on its stack.
        let status = count == PEKIT_RAISE ? LUA_ERRRUN : runtime.on(co) { () -> Int32 in
            task.state = .running
            // Ctrl-C must find this thread while it runs (shim.c, "Watched states").
            let running = pekit_running_begin(co)
            defer { pekit_running_end(co, running) }
            return lua_resume(co, previous, count, &results)
        }
        switch status {
        case LUA_YIELD:
            lua_settop(co, 0)
            // A plain coroutine.yield() in the task lets the others run; it goes on after them.
            if case .running = task.state { wake(task) { _ in 0 } }
        case LUA_OK:
            // The results as {n = count, ...}, set raw (as every table pekit builds). The
            // coroutine's stack may be full with them: room for the table and a value.
            guard lua_checkstack(co, 4) != 0 else {
                lua_settop(co, 0)
                task.errorText = "too many results"
                LuaStack(L: co).push("too many results")
                finish(task, .failed, runtime)
                return
            }
            let stack = LuaStack(L: co), base = lua_gettop(co) - results
            stack.newTable(narr: results, nrec: 1)
            for i in 0..<results {
                stack.pushValue(base + 1 + i)
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            stack.push(integer: Int64(results))
            stack.rawSet(-2, "n")
            finish(task, .done, runtime)
        default:
            // The error's text (a table's __tostring, run protected) and the coroutine's traceback.
            _ = lua_checkstack(co, 2)
            _ = lua_checkstack(previous, 4)
            lua_pushvalue(co, -1)
            lua_xmove(co, previous, 1)
            _ = pekit_describe_error(previous)
            let message = LuaStack(L: previous).string(-1) ?? "error"
            luaL_traceback(previous, co, nil, 0)
            task.errorText = message
            task.traceback = LuaStack(L: previous).string(-1) ?? ""
            lua_settop(previous, lua_gettop(previous) - 2)
            finish(task, .failed, runtime)
        }
    }

    /// Keeps the result on top of the task's stack, lets the coroutine go, wakes its waiters.
    private func finish(_ task: LuaTask, _ state: LuaTask.State, _ runtime: LuaRuntime) {
        lua_xmove(task.thread, runtime.L, 1)
        task.resultRef = runtime.reference()
        runtime.releaseReference(task.threadRef)
        task.threadRef = LUA_NOREF
        byThread[task.thread] = nil
        task.state = state
        unfinished -= 1
        for waiter in task.waiters {
            waiter.pendingCount -= 1
            if waiter.pendingCount == 0, let then = waiter.onUnblocked {
                waiter.onUnblocked = nil
                then()
            }
        }
        task.waiters = []
        if task.orphaned { release(task, runtime) }
    }
}
