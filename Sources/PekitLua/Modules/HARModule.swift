import CLua
import PekitCore

/// `pekit.har.load(path)`: the requests of a HAR 1.2 file (as browsers and proxies export it) as
/// pekit requests, in order (`req:send()`, `req:raw()`, …), and the statuses recorded for them.
enum HARModule: LuaModule {
    static let name = "har"
    /// `pekit.har.requests` makes request handles.
    static let requires: [LuaModule.Type] = [RequestModule.self]

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            setFunction(module, "pekit.har", "load") { call in
                try call.require(.files)
                let path = try call.string(1)
                guard let bytes = Files.read(path) else { throw LuaArgumentError("\(path): cannot read the file") }
                let entries: [HAR.Entry]
                do { entries = try HAR.entries(bytes) } catch { throw LuaArgumentError("\(path): \(error)") }
                call.stack.newTable(narr: Int32(clamping: entries.count))
                for (i, entry) in entries.enumerated() {
                    let builder = entry.builder()
                    RequestModule.pushRequest(try builder.build(), builder: builder, in: call.runtime)
                    call.stack.rawSetIndex(-2, Int64(i + 1))
                }
                call.stack.newTable(narr: Int32(clamping: entries.count))
                for (i, entry) in entries.enumerated() {
                    if let status = entry.status { call.stack.push(integer: Int64(status)) } else { call.stack.pushNil() }
                    call.stack.rawSetIndex(-2, Int64(i + 1))
                }
                return 2
            }
        }
    }
}
