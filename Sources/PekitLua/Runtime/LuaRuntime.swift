import CLua
import CLuaShim
import Foundation
import PekitCore
import PekitHTTP

/// A buffer owned by the runtime and reused across calls, so encoding from Lua allocates nothing
/// of its own; it grows on demand and keeps at most `retainLimit` bytes between calls.
final class ScratchBuffer {
    private(set) var buffer: UnsafeMutableBufferPointer<UInt8>
    private let initialSize: Int
    static let retainLimit = 16 << 20

    init(size: Int) {
        initialSize = size
        buffer = .allocate(capacity: size)
    }
    deinit { buffer.deallocate() }

    /// A buffer of at least `size` bytes.
    func reserve(_ size: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if buffer.count < size {
            buffer.deallocate()
            buffer = .allocate(capacity: max(size, buffer.count * 2))
        }
        return buffer
    }

    /// Gives memory back after a call that needed more than is worth keeping.
    func trim() {
        if buffer.count > Self.retainLimit {
            buffer.deallocate()
            buffer = .allocate(capacity: initialSize)
        }
    }
}

/// The Lua host: one `lua_State` with pekit's modules, the plugin loader and the policy registry.
///
/// One runtime per thread: calls from another thread than the one that made it are refused with
/// a `LuaError`. Every call into Lua is protected (`lua_pcall`) and comes back as a thrown
/// `LuaError`; no Lua error ever unwinds through Swift frames.
///
/// Each plugin runs in a runtime of its own (role `.plugin`): its own `lua_State`, memory cap
/// and instruction budget, pure functions only. Plugins share no table with the host or with
/// each other; what crosses is copied (`LuaTransfer`).
public final class LuaRuntime {
    /// How a runtime is set up.
    public struct Options {
        /// Scripts get only the safe standard libraries (the plugin allow-list) and pekit's pure
        /// functions when true: no files, no network (`pekit run --sandbox`).
        public var sandboxed: Bool = false
        /// Extra plugin directories searched before the default path (`--plugins DIR`).
        public var extraPluginDirectories: [String] = []
        /// Whether `./plugins` (in the current directory) is on the default path: off unless the
        /// user trusts it (`PEKIT_TRUST_LOCAL_PLUGINS=1`), as git ignores a repository's own hooks.
        public var trustLocalPlugins: Bool? = nil
        /// VM instructions (and pattern-matching steps) a plugin may run per call, load or function,
        /// counting every coroutine it starts, before it is stopped.
        public var pluginInstructionBudget: Int = 50_000_000
        /// Wall-clock seconds a plugin's call (with everything it starts) may run, whatever its
        /// instructions: the instruction budget bounds Lua code, this bounds the rest.
        public var pluginTimeLimit: Double = 2
        /// Bytes a plugin's state may hold in all (its own Lua state, whatever pekit returned to it).
        public var pluginMemoryLimit: Int = 64 << 20
        /// Deepest nesting of tables converted to values.
        public var maxDepth: Int = 64
        /// Where the binary lives, for finding the plugins installed beside it.
        public var executablePath: String? = nil
        /// Environment for `PEKIT_PLUGIN_PATH`, `HOME`, the public suffix list and the locale
        /// (default: the process environment, read when it is asked for, so that a start that
        /// needs three variables does not build a dictionary of all of them).
        public var environment: [String: String] {
            get { givenEnvironment ?? CLibrary.processEnvironment() }
            set { givenEnvironment = newValue }
        }
        private var givenEnvironment: [String: String]? = nil

        /// One variable of `environment`.
        func environmentVariable(_ name: String) -> String? {
            if let given = givenEnvironment { return given[name] }
            return CLibrary.environment(name)
        }

        public init() {}
    }

    /// The state made for the runtime; scripts run on it and its coroutines.
    let mainState: OpaquePointer
    /// The state of the call in progress: the caller's own (a coroutine has its own stack), set
    /// by `on(_:_:)` (and only there) for the duration of each call from Lua; `mainState`
    /// between calls.
    /// Every helper that pushes or reads values uses it, so none touches another thread's stack.
    package var L: OpaquePointer
    let options: Options
    /// `options.environment`, made once, on the first request or jar that reads it.
    private(set) lazy var environment: [String: String] = options.environment
    /// What the runtime's code may do (the host, `run --sandbox`, or one plugin).
    let role: LuaRole
    /// The runtime that loaded this plugin (nil for the host): named policies are looked up there.
    var host: LuaRuntime? { hostLifetime?.current }
    private let hostLifetime: RuntimeLifetime?
    /// What callbacks and plugin runtimes hold instead of a weak reference (RuntimeLifetime.swift),
    /// made the first time something may outlive the runtime.
    var lifetime: RuntimeLifetime {
        if let lifetime = lifetimeStorage { return lifetime }
        let lifetime = RuntimeLifetime(self)
        lifetimeStorage = lifetime
        return lifetime
    }
    private var lifetimeStorage: RuntimeLifetime?
    /// The thread that made the runtime: a Lua state is not thread-safe, so using it from
    /// another thread is refused with an error instead of racing.
    private let owner = pthread_self()
    private var boxes: [LuaFunctionBox] = []
    private var handleCounter = 0

    /// A new id for a handle (`LuaHandle`): unique in this runtime.
    func nextHandleID() -> Int {
        handleCounter += 1
        return handleCounter
    }

    /// A module's own state for this runtime (one of `type`), made by `make` the first time.
    func moduleState<State: AnyObject>(_ type: State.Type, _ make: () -> State) -> State {
        let key = ObjectIdentifier(type)
        if let found = moduleStates.first(where: { $0.type == key }), let state = found.state as? State { return state }
        let state = make()
        moduleStates.append((key, state))
        return state
    }
    /// The warnings said once on standard error (`warnOnce`).
    private var warned: Set<String> = []
    /// The state of the modules that keep their own (`LuaModule`s), by its type, made on first use.
    /// A list, not a dictionary: a dozen entries, and the first dictionary of a new type costs
    /// start-up a search of the binary's conformances (issue 47).
    private var moduleStates: [(type: ObjectIdentifier, state: AnyObject)] = []
    /// The modules installed in this state so far (`PekitModule.install(_:in:)`).
    var installedModules: [ObjectIdentifier] = []
    let tasks = TaskScheduler()
    /// The memory budget PekitCore's work charges while a call from this state's Lua is in
    /// progress: it counts against the state's cap with what Lua holds (`pekit_memory_charge`).
    private(set) lazy var memoryAccount: MemoryBudget.Account = {
        let state = mainState
        return MemoryBudget.Account { bytes in pekit_memory_charge(state, bytes) == 0 }
    }()
    /// Where `pekit run --har` records every exchange the script makes.
    public var harLog: HARLog?
    /// Where `pekit run` shows a download to a file (`sink = path`) and a batch
    /// (`pekit.http.all`) going on, when the script watches neither itself.
    public var progressDisplay: ProgressDisplay?
    /// The URL handles' metatable, by reference: found by index, not by name, on every URL call.
    var urlMetatableRef: Int32 = LUA_NOREF
    /// The marker metatables, cached after start-up.
    var markerCache = MarkerCache()
    /// Host-side functions standing for plugin functions, one per plugin function.
    var proxies: [ProxyKey: LuaFunctionBox] = [:]
    /// A reusable output buffer for functions that produce short strings in loops.
    let scratch = ScratchBuffer(size: 16 << 10)
    // Resolved once: `pekit.encode(s, name)` looks a policy up on every call, and reading the
    // weak `host` each time is an atomic operation on the hot path.
    /// Named policies: a plugin's runtime uses its host's.
    package lazy var policies: PolicyRegistry = host?.policies ?? PolicyRegistry(runtime: self)
    /// The plugin loader: a plugin's runtime uses its host's.
    package lazy var plugins: PluginLoader = host?.plugins ?? PluginLoader(runtime: self)

    /// Creates a state with the standard libraries and the `pekit` module (global and `require`).
    /// - Throws: `LuaError` when the state cannot be created or set up.
    public convenience init(options: Options = Options()) throws {
        try self.init(options: options, role: options.sandboxed ? .sandbox : .host, host: nil)
    }

    init(options: Options, role: LuaRole, host: LuaRuntime?) throws {
        let limit = role.isPlugin ? options.pluginMemoryLimit : 0
        guard let state = pekit_newstate(limit, role.isPlugin ? 1 : 0) else { throw LuaError(message: "pekit: cannot create a Lua state (out of memory)") }
        mainState = state
        L = state
        self.options = options
        self.role = role
        hostLifetime = host?.lifetime
        pekit_set_dispatcher(luaDispatcher)
        pekit_extraspace(state).pointee = Unmanaged.passUnretained(self).toOpaque()
        luaL_openlibs(state)
        // Before anything can make a coroutine: Ctrl-C must find the thread running Lua code.
        _ = pekit_watch_coroutines(state)
        pekit_open_patterns(state)
        if role.isPlugin { pekit_meter_library(state) }
        try PekitModule.install(in: self)
        if role != .host { try lockDown() }
    }

    deinit {
        lifetimeStorage?.isAlive = false
        pekit_extraspace(mainState).pointee = nil
        pekit_close(mainState)
    }

    /// Runs `body` with `state` (a thread a call came from, or a coroutine being resumed) as the
    /// one every push and read goes to, and the previous one again after.
    @inline(__always)
    func on<T>(_ state: OpaquePointer, _ body: () throws -> T) rethrows -> T {
        let previous = L
        L = state
        defer { L = previous }
        return try body()
    }

    /// The one way into Swift from Lua, used by all three: the trampoline of every Swift
    /// function, urlvalue.c's parser, and a task being resumed with what it waited for. Runs
    /// `body` on `state` (`on`); `body` pushes its results and returns their count (or
    /// PEKIT_RAISE / PEKIT_YIELD). The results were made with the memory cap off (a failed
    /// allocation inside an API call would raise through Swift frames), so they count against it
    /// here: over the cap, they are dropped and "not enough memory" is raised instead. In debug
    /// builds, checks that the results counted are on the stack above what was there.
    @inline(__always)
    func enter(_ state: OpaquePointer, name: @autoclosure () -> String, _ body: () -> Int32) -> Int32 {
        on(state) {
            let results = body()
            guard results >= 0 else { return results }
            assert(lua_gettop(state) >= results, "\(name()): says it returns \(results) values; the stack holds \(lua_gettop(state))")
            if pekit_memory_exceeded(state) != 0 {
                lua_settop(state, lua_gettop(state) - results)
                stack.push("\(name()): not enough memory (the limit is \(pekit_memory_limit(state) >> 20) MB)")
                return PEKIT_RAISE
            }
            return results
        }
    }

    /// The runtime that owns `state` (or the coroutine `state` belongs to).
    static func runtime(for state: OpaquePointer) -> LuaRuntime? {
        guard let pointer = pekit_extraspace(state).pointee else { return nil }
        return Unmanaged<LuaRuntime>.fromOpaque(pointer).takeUnretainedValue()
    }

    package var stack: LuaStack { LuaStack(L: L) }

    /// Says `warning` on standard error, once for this runtime (nil: nothing to say).
    func warnOnce(_ warning: String?, from module: String) {
        guard let warning, warned.insert(warning).inserted else { return }
        fputs("\(module): warning: \(warning)\n", stderr)
    }

    static let wrongThread = "this Lua runtime belongs to the thread that created it (a Lua state is not thread-safe): create one LuaRuntime per thread"
    var isOwnerThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

    /// - Throws: `LuaError` when called from a thread other than the one that made the runtime.
    package func checkThread() throws {
        guard isOwnerThread else { throw LuaError(message: Self.wrongThread) }
    }

    // MARK: Exposing Swift functions

    /// Pushes a Lua function that runs `body`; errors it throws become Lua errors naming `name`.
    package func pushFunction(_ name: String, _ body: @escaping (LuaCall) throws -> Int32) {
        let box = LuaFunctionBox(name: name, body: body)
        boxes.append(box)
        pekit_push_swift_function(L, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Pushes the function of an existing box (kept alive by `proxies`).
    func push(box: LuaFunctionBox) {
        pekit_push_swift_function(L, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Sets `table[field]` (table at `index`) to a function named `qualifier.field`.
    package func setFunction(_ index: Int32, _ qualifier: String, _ field: String, _ body: @escaping (LuaCall) throws -> Int32) {
        let table = stack.absolute(index)
        pushFunction(qualifier.isEmpty ? field : "\(qualifier).\(field)", body)
        stack.rawSet(table, field)
    }

    // MARK: Calling Lua

    /// Calls the function below `nargs` arguments on the stack of the current state, protected,
    /// with the memory cap on and, in a plugin's runtime, under the plugin's instruction budget
    /// (one budget for the outermost call and everything it starts). On success the results are
    /// on the stack; on failure nothing is left and a `LuaError` is thrown.
    /// - Parameter traceback: add a traceback to string errors.
    func call(_ nargs: Int32, results: Int32 = LUA_MULTRET, traceback: Bool = true) throws {
        try checkThread()
        let L = self.L
        let nanoseconds = options.pluginTimeLimit > 0 ? Int64(min(options.pluginTimeLimit, 1e9) * 1e9) : 0
        let budgeted = pekit_budget_begin(L, Int64(options.pluginInstructionBudget), nanoseconds) != 0
        // Ended after the error's text is read: a plugin's error object may have a __tostring.
        defer { if budgeted { pekit_budget_end(L) } }
        let previous = pekit_enforce_memory(L, 1)
        let status = traceback ? pekit_pcall_traceback(L, nargs, results) : pekit_pcall(L, nargs, results)
        pekit_enforce_memory(L, previous)
        if status != LUA_OK {
            let stack = LuaStack(L: L)
            let text: String
            if status == LUA_ERRMEM {
                let cap = pekit_memory_limit(L)
                text = cap > 0 ? "not enough memory (the limit is \(cap >> 20) MB)" : "not enough memory"
            } else {
                pekit_describe_error(L)
                text = stack.string(-1) ?? ""
            }
            stack.pop()
            var error = LuaError(handled: text)
            error.isInterrupt = pekit_interrupt_pending() != 0
            throw error
        }
    }

    /// Compiles `source` as a text chunk (never bytecode) and leaves the function on the stack.
    /// - Throws: `LuaError` with Lua's syntax message (`name:LINE: … near …`).
    /// Loads the prelude: precompiled (pekit's own bytecode, loaded in 40 µs where compiling
    /// its source took 400, issue 47) when the bytecode was made from this source and pekit was
    /// built against the release of Lua that made it, from its source otherwise. Only this
    /// chunk is ever loaded as bytecode.
    func loadPrelude() throws {
        let chunkName = "=pekit.prelude"
        var length = 0
        var source = preludeSource
        let bytecode = source.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { pekit_prelude_bytecode($0.baseAddress, $0.count, &length) }
        }
        if length > 0 {
            let previous = pekit_enforce_memory(L, 0)
            let status = luaL_loadbufferx(L, bytecode, length, chunkName, "b")
            pekit_enforce_memory(L, previous)
            if status == LUA_OK { return }
            stack.pop()
        }
        try load(Array(preludeSource.utf8), chunkName: chunkName)
    }

    package func load(_ source: [UInt8], chunkName: String) throws {
        try checkThread()
        let source = source.isEmpty ? [0x20] : source  // a non-null buffer for an empty chunk
        let status = source.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let previous = pekit_enforce_memory(L, 0)
                defer { pekit_enforce_memory(L, previous) }
                return luaL_loadbufferx(L, chars.baseAddress, chars.count, chunkName, "t")
            }
        }
        if status != LUA_OK {
            let message = stack.string(-1) ?? "cannot load \(chunkName)"
            stack.pop()
            throw LuaError(message: message)
        }
    }

    // MARK: Sandbox

    /// Turns a freshly set-up state into a sandbox: only the allow-listed globals stay (see the
    /// prelude's `lockdown`). A plugin's globals are strict (reading an undefined one is an
    /// error) and its `print` writes to standard error, naming the plugin, so it can never mix
    /// into a command's output.
    func lockDown() throws {
        getRegistry(.lockDown)
        if case .plugin(let name, _) = role {
            pushFunction("print") { call in
                var words: [String] = []
                for i in 1...max(call.count, 1) where call.count > 0 { words.append(call.stack.toStringMeta(i)) }
                FileHandle.standardError.write(Data("plugin \"\(name)\": \(words.joined(separator: "\t"))\n".utf8))
                return 0
            }
            stack.push(bool: true)
        } else {
            stack.pushNil()
            stack.push(bool: false)
        }
        try call(2, results: 0)
    }

    // MARK: Registry

    /// Stores the value on top of the stack under `key` in the registry (pops it).
    func setRegistry(_ key: RegistryKey) { stack.rawSet(pekit_registryindex(), key.rawValue) }
    /// Pushes the registry value stored under `key`; returns its type.
    @discardableResult
    func getRegistry(_ key: RegistryKey) -> Int32 { stack.rawGet(pekit_registryindex(), key.rawValue) }

    /// Keeps the value on top of the stack alive in the registry (pops it); returns its reference.
    func reference() -> Int32 { luaL_ref(L, pekit_registryindex()) }
    /// Pushes a referenced value.
    func pushReference(_ ref: Int32) { _ = stack.rawGetIndex(pekit_registryindex(), Int64(ref)) }
    /// Lets a referenced value go.
    func releaseReference(_ ref: Int32) { luaL_unref(L, pekit_registryindex(), ref) }

    /// Sets the global `name` to the value on top (pops it), without metamethods: a script may
    /// have given `_G` a `__newindex` that errors, and an error here would cross Swift frames.
    package func setGlobal(_ name: String) {
        pekit_pushglobaltable(L)
        lua_rotate(L, -2, 1)
        stack.rawSet(-2, name)
        stack.pop()
    }
}

/// Process-wide allocator tuning for programs that run scripts handling large strings (the CLI
/// calls it once at start-up): large blocks stay in the heap instead of a fresh mapping each.
public func tuneMalloc() { pekit_tune_malloc() }
