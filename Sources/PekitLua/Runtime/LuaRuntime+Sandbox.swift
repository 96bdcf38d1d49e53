import CLua
import CLuaShim
import Foundation

extension LuaRuntime {
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
}
