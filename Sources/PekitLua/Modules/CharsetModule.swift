import CLua
import CLuaShim
import PekitCore

/// `pekit.charset`: allowed sets as Lua values (a userdata holding the 128-bit table).
///
///     local cs = pekit.charset.unreserved + "[]"     -- presets by name; + and - take sets or strings
///     pekit.charset("[]"):contains("[")             -- exactly these characters
///     ~pekit.charset.letters                         -- inversion (ASCII only)
///     tostring(cs)                                   -- charset("-.0123…[]…~")
enum CharsetModule: LuaModule {
    static let name = "charset"

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack, L = runtime.L
        let setFunction = runtime.setFunction
        let pekit = stack.absolute(pekit)
        // The metatable of charset values.
        luaL_newmetatable(L, LuaRuntime.charsetMetatable)
        let meta = stack.top
        setFunction(meta, "charset", "__add") { call in
            call.runtime.push(charset: try call.runtime.charsetOperand(call, 1) + call.runtime.charsetOperand(call, 2)); return 1
        }
        setFunction(meta, "charset", "__sub") { call in
            call.runtime.push(charset: try call.runtime.charsetOperand(call, 1) - call.runtime.charsetOperand(call, 2)); return 1
        }
        setFunction(meta, "charset", "__bnot") { call in
            call.runtime.push(charset: ~(try call.runtime.charsetOperand(call, 1))); return 1
        }
        setFunction(meta, "charset", "__eq") { call in
            call.stack.push(bool: call.runtime.charset(at: 1) == call.runtime.charset(at: 2)); return 1
        }
        setFunction(meta, "charset", "__tostring") { call in
            call.stack.push("charset(\(Self.luaQuoted(try call.runtime.charsetOperand(call, 1).description)))"); return 1
        }
        stack.newTable()
        setFunction(-1, "charset", "contains") { call in
            let set = try call.runtime.charsetOperand(call, 1)
            let bytes = try call.bytes(2)
            // True when every byte of the string is allowed (so a non-ASCII character never is).
            call.stack.push(bool: !bytes.isEmpty && bytes.allSatisfy(set.contains)); return 1
        }
        setFunction(-1, "charset", "chars") { call in
            call.stack.push(try call.runtime.charsetOperand(call, 1).bytes); return 1
        }
        stack.rawSet(meta, "__index")
        stack.push("pekit.charset")
        stack.rawSet(meta, "__name")
        stack.push("pekit.charset")
        stack.rawSet(meta, "__metatable")
        stack.pop()

        // pekit.charset: presets as fields, and callable to build a set from characters.
        stack.newTable()
        let module = stack.top
        for name in AllowedSet.presetNames {
            runtime.push(charset: AllowedSet.preset(named: name) ?? AllowedSet())
            stack.rawSet(module, name)
        }
        runtime.push(charset: AllowedSet())
        stack.rawSet(module, "none")
        stack.newTable()
        runtime.pushFunction("pekit.charset") { call in
            // Called as pekit.charset(chars): argument 1 is the module table itself.
            let chars = try call.bytes(2)
            do {
                call.runtime.push(charset: try AllowedSet(characters: String(decoding: chars, as: UTF8.self)))
            } catch {
                throw call.badArgument(1, "\(error)")
            }
            return 1
        }
        stack.rawSet(-2, "__call")
        lua_setmetatable(L, module)
        stack.rawSet(pekit, "charset")
    }

    /// `text` in double quotes, with quotes escaped (its backslashes are escapes already).
    static func luaQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { out += "\\\"" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }
}
