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
public final class LuaRuntime {
    /// How a runtime is set up.
    public struct Options {
        /// Scripts get only the safe standard libraries (the plugin allow-list) when true.
        public var sandboxed: Bool = false
        /// Extra plugin directories searched before the default path (`--plugins DIR`).
        public var extraPluginDirectories: [String] = []
        /// VM instructions a plugin may run per call (load or function) before it is stopped.
        public var pluginInstructionBudget: Int32 = 50_000_000
        /// Bytes a plugin may allocate beyond what is in use when it starts.
        public var pluginMemoryLimit: Int = 64 << 20
        /// Deepest nesting of tables converted to values.
        public var maxDepth: Int = 64
        /// Where the binary lives, for finding the plugins installed beside it.
        public var executablePath: String? = nil
        /// Environment for `PEKIT_PLUGIN_PATH` and `HOME` (default: the process environment).
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        public init() {}
    }

    let L: OpaquePointer
    let options: Options
    /// The thread that made the runtime: a Lua state is not thread-safe, so using it from
    /// another thread is refused with an error instead of racing.
    private let owner = pthread_self()
    private var boxes: [LuaFunctionBox] = []
    /// Cookie jars by the id their userdata holds (dropped by `__gc`).
    var jars: [Int: CookieJar] = [:]
    var jarClocks: [Int: JarClock] = [:]
    var handleCounter = 0
    var cachedSuffixes: PublicSuffixList?
    /// Built requests by the id their userdata holds (dropped by `__gc`).
    var requests: [Int: StoredRequest] = [:]
    /// The connection cache of `pekit.http`, made on first use.
    var httpClient: HTTPClient?
    var httpClientBusy = false
    var warnedInsecure = false
    /// Accept-Language for requests, from the environment once.
    lazy var acceptLanguage = RequestBuilder.acceptLanguage(environment: options.environment)
    /// The marker metatables, cached after start-up.
    var markerCache = MarkerCache()
    /// A reusable output buffer for functions that produce short strings in loops.
    let scratch = ScratchBuffer(size: 16 << 10)
    lazy var policies = PolicyRegistry(runtime: self)
    lazy var plugins = PluginLoader(runtime: self)

    /// Creates a state with the standard libraries and the `pekit` module (global and `require`).
    /// - Throws: `LuaError` when the state cannot be created or set up.
    public init(options: Options = Options()) throws {
        guard let state = pekit_newstate(0) else { throw LuaError(message: "pekit: cannot create a Lua state (out of memory)") }
        L = state
        self.options = options
        pekit_set_dispatcher(luaDispatcher)
        pekit_extraspace(L).pointee = Unmanaged.passUnretained(self).toOpaque()
        luaL_openlibs(L)
        try installPekitModule()
    }

    deinit {
        pekit_extraspace(L).pointee = nil
        pekit_close(L)
    }

    /// The runtime that owns `state` (or the coroutine `state` belongs to).
    static func runtime(for state: OpaquePointer) -> LuaRuntime? {
        guard let pointer = pekit_extraspace(state).pointee else { return nil }
        return Unmanaged<LuaRuntime>.fromOpaque(pointer).takeUnretainedValue()
    }

    var stack: LuaStack { LuaStack(L: L) }

    static let wrongThread = "this Lua runtime belongs to the thread that created it (a Lua state is not thread-safe): create one LuaRuntime per thread"
    var isOwnerThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

    /// - Throws: `LuaError` when called from a thread other than the one that made the runtime.
    func checkThread() throws {
        guard isOwnerThread else { throw LuaError(message: Self.wrongThread) }
    }

    // MARK: Exposing Swift functions

    /// Pushes a Lua function that runs `body`; errors it throws become Lua errors naming `name`.
    func pushFunction(_ name: String, _ body: @escaping (LuaCall) throws -> Int32) {
        let box = LuaFunctionBox(name: name, body: body)
        boxes.append(box)
        pekit_push_swift_function(L, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Sets `table[field]` (table at `index`) to a function named `qualifier.field`.
    func setFunction(_ index: Int32, _ qualifier: String, _ field: String, _ body: @escaping (LuaCall) throws -> Int32) {
        let table = stack.absolute(index)
        pushFunction(qualifier.isEmpty ? field : "\(qualifier).\(field)", body)
        stack.rawSet(table, field)
    }

    // MARK: Calling Lua

    /// Calls the function below `nargs` arguments on the stack, protected, with the memory cap on.
    /// On success the results are on the stack; on failure nothing is left and a `LuaError` is thrown.
    /// - Parameters:
    ///   - traceback: add a traceback to string errors.
    ///   - budget: VM instructions allowed (0: no limit).
    ///   - memoryLimit: bytes the call may allocate beyond current use (0: no cap).
    func call(_ nargs: Int32, results: Int32 = LUA_MULTRET, traceback: Bool = true,
              budget: Int32 = 0, memoryLimit: Int = 0, on state: OpaquePointer? = nil) throws {
        try checkThread()
        let L = state ?? self.L
        let savedHook = lua_gethook(L), savedMask = lua_gethookmask(L), savedCount = lua_gethookcount(L)
        let savedLimit = pekit_memory_limit(L)
        if budget > 0 { pekit_set_instruction_budget(L, budget) }
        if memoryLimit > 0 {
            let allowed = pekit_memory_used(L) + memoryLimit
            pekit_set_memory_limit(L, savedLimit == 0 ? allowed : min(savedLimit, allowed))
        }
        let previous = pekit_enforce_memory(L, 1)
        let status = traceback ? pekit_pcall_traceback(L, nargs, results) : pekit_pcall(L, nargs, results)
        pekit_enforce_memory(L, previous)
        pekit_set_memory_limit(L, savedLimit)
        if budget > 0 { lua_sethook(L, savedHook, savedMask, savedCount) }
        if status != LUA_OK {
            let stack = LuaStack(L: L)
            let text: String
            if status == LUA_ERRMEM {
                let cap = memoryLimit > 0 ? memoryLimit : savedLimit
                text = cap > 0 ? "not enough memory (the limit is \(cap >> 20) MB)" : "not enough memory"
            } else if stack.type(-1) == LUA_TSTRING {
                text = stack.string(-1) ?? ""
            } else {
                text = stack.toStringMeta(-1)
            }
            stack.pop()
            throw LuaError(handled: text)
        }
    }

    /// Compiles `source` as a text chunk (never bytecode) and leaves the function on the stack.
    /// - Throws: `LuaError` with Lua's syntax message (`name:LINE: … near …`).
    func load(_ source: [UInt8], chunkName: String) throws {
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

    // MARK: Registry

    /// Stores the value on top of the stack under `key` in the registry (pops it).
    func setRegistry(_ key: String) { stack.rawSet(pekit_registryindex(), key) }
    /// Pushes the registry value stored under `key`; returns its type.
    @discardableResult
    func getRegistry(_ key: String) -> Int32 { stack.rawGet(pekit_registryindex(), key) }

    /// Keeps the value on top of the stack alive in the registry (pops it); returns its reference.
    func reference() -> Int32 { luaL_ref(L, pekit_registryindex()) }
    /// Pushes a referenced value.
    func pushReference(_ ref: Int32) { _ = stack.rawGetIndex(pekit_registryindex(), Int64(ref)) }
}

/// Process-wide allocator tuning for programs that run scripts handling large strings (the CLI
/// calls it once at start-up): large blocks stay in the heap instead of a fresh mapping each.
public func tuneMalloc() { pekit_tune_malloc() }
