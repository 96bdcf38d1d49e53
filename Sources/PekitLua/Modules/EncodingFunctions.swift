import CLua
import CLuaShim
import PekitCore

/// `pekit.encode(s [, policy_or_options])` and `pekit.decode(s [, policy_or_options])`: functions
/// of `pekit` itself, not of a module table.
enum EncodingFunctions {
    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        setFunction(pekit, "pekit", "encode") { call in
            let encoder = try PolicyModule.encoder(from: call, argument: 2)
            // Encode straight from Lua's copy of the string into the result's: no intermediate
            // array. Room for the worst case, not a counted size: strings die in batches at the
            // collector's pace, and blocks of the counted size met fresh pages six calls in
            // sixteen (1 MB: 0.8 ms a call against 0.2), where the worst case's split blocks did not.
            try call.withBytes(1) { input in
                try call.pushWritten(capacity: PercentEncoder.maximumEncodedCount(input.count)) { output in
                    encoder.encode(bytes: input, into: output) ?? 0
                }
            }
            return 1
        }
        setFunction(pekit, "pekit", "decode") { call in
            let input = try call.bytes(1)
            var decoder = PercentDecoder()
            let stack = call.stack
            switch stack.type(2) {
            case LUA_TNONE, LUA_TNIL: break
            case LUA_TSTRING:
                // A policy name: decode what that policy encodes ('+' as space for form policies).
                decoder.plusAsSpace = try call.runtime.policies.get(call.string(2)).space == .plus
            case LUA_TTABLE:
                let options = try LuaFields.read(call, argument: 2, known: ["plus", "strict", "utf8", "unicode_escapes"])
                if let on = try options?.flag("plus") { decoder.plusAsSpace = on }
                if let on = try options?.flag("strict") { decoder.mode = on ? .strict : .lenient }
                if let on = try options?.flag("utf8") { decoder.requiresUTF8 = on }
                if let on = try options?.flag("unicode_escapes") { decoder.decodesUnicodeEscapes = on }
            default:
                throw call.typeError(2, expected: "options table or policy name")
            }
            call.stack.push(try decoder.decode(bytes: input))
            return 1
        }
    }
}
