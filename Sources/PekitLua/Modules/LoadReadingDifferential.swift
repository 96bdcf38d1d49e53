import CLuaShim
import PekitCore
import PekitHTTP

/// `LoadRequestReader`'s quick reading held to the general one (`HTTPModule.batchItem`), table
/// by table: the same request, head and send options, or the same error. One comparison for
/// the differential test (`LoadRequestReaderTests`) and the `loadtable` mode of the `lua` fuzz
/// target, so the two cannot come to hold the reader to different things.
package enum LoadReadingDifferential {
    /// What a run of tables came to.
    package struct Tally: Equatable {
        /// Tables read.
        package var tables = 0
        /// Tables the quick reading made from a template.
        package var fromTemplate = 0
        /// Tables both readings refused, with the same error.
        package var refused = 0
        /// `index: quick | general` for each table the readings differ on.
        package var differences: [String] = []
    }

    /// Reads each table of the Lua array in the global `name` with one `LoadRequestReader`, in
    /// order (as a load script's function returns them), and again as `pekit.http.all` reads an
    /// item. The stack is left as it was found.
    /// - Complexity: O(n) builds for n tables, two for each.
    package static func run(_ runtime: LuaRuntime, global name: String) -> Tally {
        let stack = runtime.stack
        let top = stack.top
        defer { stack.pop(stack.top - top) }
        pekit_pushglobaltable(runtime.L)
        _ = stack.rawGet(stack.top, name)
        let tables = stack.top
        guard stack.type(tables) == LUA_TTABLE else { return Tally() }
        let call = LuaCall(stack: stack, name: "pekit.http.load", runtime: runtime, count: 0)
        let reader = LoadRequestReader()
        var tally = Tally()
        var i: Int64 = 1
        while stack.rawGetIndex(tables, i) == LUA_TTABLE {
            let table = stack.top
            let quick = Result { try reader.item(at: table, call) }
            let general = Result { try HTTPModule.batchItem(at: table, call, argument: 1, base: SendOptions()) }
            stack.pop()
            tally.tables += 1
            switch (quick, general) {
            case (.success(let (a, aOptions)), .success(let (b, bOptions))):
                if a.madeHead != nil { tally.fromTemplate += 1 }
                let same = a.head() == b.head() && a.headers == b.headers && a.url == b.url && a.method == b.method && a.body == b.body
                    && a.parsedURL == b.parsedURL && a.basicCredentials == b.basicCredentials && a.urlCredentials == b.urlCredentials
                    && a.continueExpected == b.continueExpected && a.framingLength == b.framingLength && a.decodesBody == b.decodesBody
                    && a.requestTarget == b.requestTarget && aOptions.followRedirects == bOptions.followRedirects
                    && aOptions.timeoutSeconds == bOptions.timeoutSeconds
                if !same {
                    func described(_ r: PekitRequest, _ o: SendOptions) -> String {
                        "\(String(decoding: r.head(), as: UTF8.self))(follow \(o.followRedirects), timeout \(o.timeoutSeconds.map { "\($0)" } ?? "none"))"
                    }
                    tally.differences.append("\(i): \(described(a, aOptions)) | \(described(b, bOptions))")
                }
            case (.failure(let a), .failure(let b)):
                tally.refused += 1
                if "\(a)" != "\(b)" { tally.differences.append("\(i): \(a) | \(b)") }
            default:
                tally.differences.append("\(i): \(quick) | \(general)")
            }
            i += 1
        }
        return tally
    }
}
