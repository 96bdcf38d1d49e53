import CLua
import CLuaShim
import PekitCore

/// `pekit.text`: text in a legacy charset as UTF-8 (`pekit.text.decode(bytes, "gb2312")`), the
/// C library's conversion; `r:text()` reads a response's body by its Content-Type's charset.
enum TextModule: LuaModule {
    static let name = "text"

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            setFunction(module, "pekit.text", "decode") { call in
                let bytes = try call.bytes(1), charset = try call.string(2)
                do { call.stack.push(ByteString(try CharsetConversion.utf8(bytes, from: charset))) } catch let failure as CharsetConversion.Failure {
                    throw call.badArgument(1, failure.description)
                }
                return 1
            }
        }
    }
}
