import CLua
import CLuaShim
import PekitCore
import PekitCrypto

/// `pekit.crypto`: digests, HMAC, streaming hashes, base64/base64url/hex, random bytes and a
/// constant-time comparison. Bytes in, bytes out; libcrypto is loaded on the first digest.
enum CryptoModule: LuaModule {
    static let name = "crypto"

    /// What the module keeps for one runtime: the streaming hashes its scripts hold.
    final class State {
        let hashes = LuaHandleTable<HashStream>(metatable: "pekit.hash")
    }

    static func state(_ runtime: LuaRuntime) -> State { runtime.moduleState(State.self, State.init) }

    static func hashStream(at index: Int32, _ call: LuaCall) throws -> HashStream {
        try state(call.runtime).hashes.object(at: index, call, expected: "pekit.hash (from pekit.crypto.hash)")
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        let meta = state(runtime).hashes.install(in: runtime)
        setFunction(meta, "hash", "__tostring") { call in
            let stream = try hashStream(at: 1, call)
            call.stack.push("\(stream.algorithm.rawValue) hash"); return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "hash", "update") { call in
            let stream = try hashStream(at: 1, call)
            try call.withBytes(2) { try stream.update(UnsafeRawBufferPointer($0)) }
            call.stack.pushValue(1)
            return 1
        }
        setFunction(methods, "hash", "final") { call in
            call.stack.push(ByteString(try hashStream(at: 1, call).finish()))
            return 1
        }
        stack.rawSet(meta, "__index")
        stack.pop()

        stack.newTable()
        let module = stack.top
        for algorithm in DigestAlgorithm.allCases {
            setFunction(module, "pekit.crypto", algorithm.rawValue) { call in
                let data = try call.bytes(1)
                call.stack.push(ByteString(try Digest.hash(algorithm, data)))
                return 1
            }
        }
        setFunction(module, "pekit.crypto", "hmac") { call in
            let algorithm = try DigestAlgorithm(named: try call.string(1))
            call.stack.push(ByteString(try Digest.hmac(algorithm, key: try call.bytes(2), try call.bytes(3))))
            return 1
        }
        setFunction(module, "pekit.crypto", "hash") { call in
            state(call.runtime).hashes.push(try HashStream(DigestAlgorithm(named: try call.string(1))), in: call.runtime)
            return 1
        }
        setFunction(module, "pekit.crypto", "random") { call in
            guard let n = call.stack.integer(1), n >= 0, n <= 1 << 20 else { throw call.badArgument(1, "a number of bytes from 0 to 1048576 expected") }
            call.stack.push(ByteString(try Digest.random(Int(n))))
            return 1
        }
        setFunction(module, "pekit.crypto", "equal") { call in
            call.stack.push(bool: try Digest.constantTimeEqual(try call.bytes(1), try call.bytes(2)))
            return 1
        }
        for (name, alphabet) in [("base64", Base64.Alphabet.standard), ("base64url", .url)] {
            stack.newTable()
            setFunction(-1, "pekit.crypto.\(name)", "encode") { call in
                call.stack.push(ByteString(Base64.encode(try call.bytes(1), alphabet: alphabet)))
                return 1
            }
            setFunction(-1, "pekit.crypto.\(name)", "decode") { call in
                call.stack.push(ByteString(try Base64.decode(try call.bytes(1), alphabet: alphabet)))
                return 1
            }
            stack.rawSet(module, name)
        }
        stack.newTable()
        setFunction(-1, "pekit.crypto.hex", "encode") { call in
            call.stack.push(ByteString(Hex.encode(try call.bytes(1))))
            return 1
        }
        setFunction(-1, "pekit.crypto.hex", "decode") { call in
            call.stack.push(ByteString(try Hex.decode(try call.bytes(1))))
            return 1
        }
        stack.rawSet(module, "hex")
        stack.rawSet(pekit, name)
    }
}
