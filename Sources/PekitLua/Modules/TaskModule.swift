import CLua
import CLuaShim
import PekitHTTP
#if canImport(Glibc)
import Glibc
#endif

/// `pekit.spawn(f, …)`, `pekit.wait(task | {tasks} | nothing)`: tasks are coroutines; inside one,
/// `pekit.http` calls, `pekit.time.sleep` and `pekit.wait` suspend the task instead of
/// blocking, so the transfers of many tasks run at once.
enum TaskModule: LuaModule {
    /// It fills `pekit.spawn` and `pekit.wait`.
    static let name = "spawn"
    static let fields = ["spawn", "wait"]
    static let taskMetatable = "pekit.task"

    static func task(at index: Int32, _ call: LuaCall, argument n: Int32) throws -> LuaTask {
        guard let id = LuaHandle.id(at: index, metatable: Self.taskMetatable, in: call.runtime), let task = call.runtime.tasks.tasks[id] else {
            throw call.badArgument(n, "a task (from pekit.spawn) expected, got \(call.stack.typeName(index))")
        }
        return task
    }

    /// Pushes what `pekit.wait` gives for one task: its results, or (raise: true) raises its error.
    /// - Returns: how many values were pushed, or PEKIT_RAISE.
    static func pushOutcome(of task: LuaTask, raise: Bool, in runtime: LuaRuntime) -> Int32 {
        let stack = runtime.stack, L = runtime.L
        task.observed = true
        runtime.pushReference(task.resultRef)
        if case .failed = task.state {
            if raise { return PEKIT_RAISE }
            stack.pop()
            stack.newTable(nrec: 3)
            stack.push(task.errorText); stack.rawSet(-2, "error")
            stack.push(task.traceback); stack.rawSet(-2, "traceback")
            runtime.pushReference(task.resultRef); stack.rawSet(-2, "value")
            runtime.getRegistry(.errorMetatable)
            lua_setmetatable(L, -2)
            return 1
        }
        let table = stack.top
        _ = stack.rawGet(table, "n")
        let count = Int32(stack.integer(-1) ?? 0)
        stack.pop()
        guard lua_checkstack(L, count + 1) != 0 else { stack.pop(); stack.push("too many results"); return PEKIT_RAISE }
        for i in 0..<count { _ = stack.rawGetIndex(table, Int64(i + 1)) }
        lua_rotate(L, table, -1)
        stack.pop()
        return count
    }

    /// The outcome of the tasks `pekit.wait` was given: one task's results, or a list of each
    /// task's first result (an error value for a failed one), or nothing.
    enum WaitTarget {
        case one(LuaTask), list([LuaTask]), all
        var tasks: [LuaTask] {
            switch self {
            case .one(let task): return [task]
            case .list(let tasks): return tasks
            case .all: return []
            }
        }
    }

    static func pushOutcome(of target: WaitTarget, in runtime: LuaRuntime) -> Int32 {
        let stack = runtime.stack
        switch target {
        case .one(let task): return pushOutcome(of: task, raise: true, in: runtime)
        case .list(let list):
            stack.newTable(narr: Int32(list.count))
            for (i, task) in list.enumerated() {
                let count = pushOutcome(of: task, raise: false, in: runtime)
                if count == 0 { stack.pushNil() } else if count > 1 { stack.pop(count - 1) }
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            return 1
        case .all: return 0
        }
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        LuaHandle.newMetatable(Self.taskMetatable, in: runtime) { runtime, id in runtime.tasks.forget(id, runtime: runtime) }
        let meta = stack.top
        setFunction(meta, Self.taskMetatable, "__tostring") { call in
            let task = try task(at: 1, call, argument: 1)
            let state: String
            switch task.state {
            case .done: state = "done"
            case .failed: state = "failed"
            default: state = "running"
            }
            call.stack.push("pekit.task \(task.id) (\(state))")
            return 1
        }
        // task.done: whether it is over; task.failed: whether it raised an error.
        setFunction(meta, Self.taskMetatable, "__index") { call in
            let task = try task(at: 1, call, argument: 1)
            switch call.stack.string(2) {
            case "done": call.stack.push(bool: task.isOver)
            case "failed":
                if case .failed = task.state { call.stack.push(bool: true) } else { call.stack.push(bool: false) }
            case "id": call.stack.push(integer: Int64(task.id))
            default: call.stack.pushNil()
            }
            return 1
        }
        stack.pop()

        setFunction(pekit, "pekit", "spawn") { call in
            try call.require(.tasks)
            let runtime = call.runtime, stack = call.stack
            guard stack.type(1) == LUA_TFUNCTION else { throw call.typeError(1, expected: "function") }
            guard let thread = lua_newthread(call.L) else { throw LuaArgumentError("cannot make a coroutine") }
            let threadRef = runtime.reference()
            // The function and its arguments (all the stack holds now) go to the new coroutine's stack.
            let arguments = call.count - 1
            lua_xmove(call.L, thread, call.count)
            let id = runtime.nextHandleID()
            runtime.tasks.add(LuaTask(id: id, thread: thread, threadRef: threadRef, arguments: arguments))
            LuaHandle.push(id, metatable: Self.taskMetatable, in: runtime)
            return 1
        }

        setFunction(pekit, "pekit", "wait") { call in
            try call.require(.tasks)
            let runtime = call.runtime, stack = call.stack
            let target: WaitTarget
            if stack.isNoneOrNil(1) {
                target = .all
            } else if stack.type(1) == LUA_TTABLE {
                target = .list(try (0..<stack.rawLength(1)).map { i in
                    _ = stack.rawGetIndex(1, Int64(i + 1))
                    defer { stack.pop() }
                    do { return try task(at: -1, call, argument: 1) } catch {
                        throw call.badArgument(1, "item \(i + 1): a task (from pekit.spawn) expected, got \(stack.typeName(-1))")
                    }
                })
            } else {
                target = .one(try task(at: 1, call, argument: 1))
            }
            let scheduler = runtime.tasks
            if let current = scheduler.suspendable(call.L) {
                let waited = target.tasks.isEmpty ? Array(scheduler.tasks.values.filter { $0 !== current }) : target.tasks
                if waited.contains(where: { $0 === current }) { throw LuaArgumentError("a task cannot wait for itself") }
                lua_settop(call.L, 0)
                // The handles just dropped may be collected before this task is woken.
                scheduler.pin(target.tasks)
                scheduler.block(current, on: waited) {
                    scheduler.wake(current) { runtime in
                        defer { scheduler.unpin(target.tasks, runtime: runtime) }
                        runtime.stack.push(bool: true)
                        let count = pushOutcome(of: target, in: runtime)
                        if count == PEKIT_RAISE {
                            // Resumed with (false, error): the call raises the task's error. The
                            // stack is (true, error): the flag is replaced.
                            runtime.stack.push(bool: false)
                            pekit_replace(runtime.L, -3)
                            return 2
                        }
                        return count + 1
                    }
                }
                return PEKIT_YIELD
            }
            // (A finished task's coroutine may be collected and its address reused: only live ones are asked.)
            if let task = scheduler.task(on: call.L), target.tasks.contains(where: { $0 === task }) {
                throw LuaArgumentError("a task cannot wait for itself")
            }
            if HTTPModule.isSending(runtime) || scheduler.isRunning && target.tasks.isEmpty {
                throw LuaArgumentError("cannot wait here (inside a transfer's callback, or for every task from inside one)")
            }
            let waited = target.tasks
            // Asked after every step: tasks seen over stay over, so the scan never goes back.
            var over = 0
            do {
                try scheduler.run(runtime) {
                    if waited.isEmpty { return scheduler.unfinished == 0 }
                    while over < waited.count, waited[over].isOver { over += 1; scheduler.inspections += 1 }
                    scheduler.inspections += 1
                    return over == waited.count
                }
            } catch {
                throw LuaArgumentError("\(error)")
            }
            if pekit_interrupt_pending() != 0 { return 0 }  // the trampoline stops the script
            return pushOutcome(of: target, in: runtime)
        }
    }
}
