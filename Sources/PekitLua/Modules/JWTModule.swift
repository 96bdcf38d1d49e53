import CLua
import CLuaShim
import PekitCore
import PekitCrypto

/// `pekit.jwt`: `encode(claims, key [, {alg=, header=}])`, `decode(token)` (header and claims,
/// not verified), `verify(token, key [, {algs=, leeway=, audience=, issuer=, time=}])`.
enum JWTModule: LuaModule {
    static let name = "jwt"

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            let names = JWT.Algorithm.allCases.map { $0.rawValue }
            setFunction(module, "pekit.jwt", "encode") { call in
                let runtime = call.runtime
                let claims = try runtime.value(at: 1, path: "claims")
                let key = try call.bytes(2)
                let fields = try LuaFields.read(call, argument: 3, known: ["alg", "header"])
                let alg = try fields?.choice("alg", names).flatMap(JWT.Algorithm.init(rawValue:)) ?? .hs256
                var header: PekitMap?
                if let extra = try fields?.value("header") {
                    guard case .map(let map) = extra else { throw fields?.error("header", "expected a table of header fields") ?? LuaArgumentError("header") }
                    header = map
                }
                call.stack.push(ByteString(try JWT.encode(claims: claims, key: key, algorithm: alg, header: header)))
                runtime.warnOnce(JWT.keyWarning(key, alg), from: "pekit.jwt")
                return 1
            }
            setFunction(module, "pekit.jwt", "decode") { call in
                let (header, claims) = try JWT.decode(try call.string(1))
                call.runtime.push(header)
                call.runtime.push(claims)
                return 2
            }
            setFunction(module, "pekit.jwt", "verify") { call in
                let token = try call.string(1)
                let key = try call.bytes(2)
                var options = JWT.Options(now: TimeModule.wallClock())
                if let fields = try LuaFields.read(call, argument: 3, known: ["algs", "leeway", "audience", "issuer", "time"]) {
                    if let algs = try fields.strings("algs") {
                        options.algorithms = try algs.map { name in
                            guard let alg = JWT.Algorithm(rawValue: name) else { throw fields.error("algs", "expected \(alternatives(names)), got \"\(name)\"") }
                            return alg
                        }
                    }
                    options.leewaySeconds = try fields.number("leeway", in: 0...31_536_000, expected: "seconds from 0") ?? 0
                    options.audience = try fields.with("audience") { i in call.stack.type(i) == LUA_TSTRING ? [call.stack.string(i) ?? ""] : nil }
                        ?? fields.strings("audience")
                    options.issuer = try fields.with("issuer") { i in call.stack.type(i) == LUA_TSTRING ? [call.stack.string(i) ?? ""] : nil }
                        ?? fields.strings("issuer")
                    if let time = try fields.number("time", in: 0...253_402_300_799, expected: "Unix seconds") { options.now = time }
                }
                call.runtime.push(try JWT.verify(token, key: key, options: options))
                if case .map(let header) = try JWT.decode(token).header, case .string(let name)? = header["alg"], let alg = JWT.Algorithm(rawValue: name.description) {
                    call.runtime.warnOnce(JWT.keyWarning(key, alg), from: "pekit.jwt")
                }
                return 1
            }
        }
    }
}
