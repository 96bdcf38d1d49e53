import CLua
import CLuaShim
import Glibc
import PekitCore
import PekitCrypto

/// `pekit.sign`: signs a built request in place — `aws_sigv4(req, options)` as botocore signs,
/// `oauth1(req, options)` as oauthlib signs; with `explain = true` each also returns what was
/// signed. The same options, with the scheme first, are a request's `sign = {"aws-sigv4", …}`,
/// which signs every redirect hop to the same origin again.
enum SignModule: LuaModule {
    static let name = "sign"
    static let sigV4Fields = ["access_key", "secret_key", "session_token", "region", "service", "time", "payload", "sign_in", "expires", "explain"]
    static let oauth1Fields = ["consumer_key", "consumer_secret", "rsa_key", "token", "token_secret", "method", "nonce", "timestamp",
                               "realm", "callback", "verifier", "body_hash", "explain"]
    static let signSchemes = ["aws-sigv4", "oauth1"]

    /// An AWS signer and its fixed time (nil: the clock at each signing).
    static func sigV4(_ fields: LuaFields) throws -> (signer: AWSSigV4, time: Double?) {
        func required(_ name: String) throws -> String {
            guard let value = try fields.string(name), !value.isEmpty else { throw fields.error(name, "required (a non-empty string)") }
            return value
        }
        var signer = AWSSigV4(accessKey: try required("access_key"), secretKey: try required("secret_key"),
                              sessionToken: try fields.string("session_token"), region: try required("region"), service: try required("service"))
        if let payload = try fields.choice("payload", AWSSigV4.Payload.allCases.map(\.rawValue)) { signer.payload = AWSSigV4.Payload(rawValue: payload) ?? .hash }
        if let place = try fields.choice("sign_in", AWSSigV4.Placement.allCases.map(\.rawValue)) { signer.placement = AWSSigV4.Placement(rawValue: place) ?? .header }
        if let expires = try fields.integer("expires", in: 1...604_800) { signer.expires = expires }
        return (signer, try fields.number("time", in: 0...253_402_300_799, expected: "Unix seconds (a number from 0)"))
    }

    static func oauth1(_ fields: LuaFields) throws -> OAuth1 {
        guard let key = try fields.string("consumer_key"), !key.isEmpty else { throw fields.error("consumer_key", "required (a non-empty string)") }
        var signer = OAuth1(consumerKey: key)
        signer.consumerSecret = try fields.string("consumer_secret") ?? ""
        signer.rsaKey = try fields.bytes("rsa_key")
        signer.token = try fields.string("token")
        signer.tokenSecret = try fields.string("token_secret")
        if let method = try fields.choice("method", OAuth1.Method.allCases.map(\.rawValue)) { signer.method = OAuth1.Method(rawValue: method) ?? .hmacSHA1 }
        if signer.method == .rsaSHA1, signer.rsaKey == nil { throw fields.error("rsa_key", "RSA-SHA1 needs the PEM private key") }
        signer.nonce = try fields.string("nonce")
        signer.timestamp = try fields.integer("timestamp", in: 0...Int64(Int32.max) * 4)
        signer.realm = try fields.string("realm")
        signer.callback = try fields.string("callback")
        signer.verifier = try fields.string("verifier")
        signer.bodyHash = try fields.flag("body_hash") ?? true
        return signer
    }

    /// A request's `sign = {"aws-sigv4" | "oauth1", …options}`.
    static func requestSigner(at index: Int32, _ call: LuaCall, argument: Int32) throws -> @Sendable (inout PekitRequest) throws -> Void {
        let stack = call.stack
        guard stack.type(index) == LUA_TTABLE, stack.rawGetIndex(index, 1) == LUA_TSTRING, let scheme = stack.string(-1), Self.signSchemes.contains(scheme) else {
            stack.pop()
            throw call.badArgument(argument, "field \"sign\": expected {\"aws-sigv4\", …} or {\"oauth1\", …}")
        }
        stack.pop()
        let known = (scheme == "aws-sigv4" ? Self.sigV4Fields : Self.oauth1Fields).filter { $0 != "explain" }
        guard let fields = try LuaFields.read(call, argument: argument, known: known, at: index, takesFirst: true) else {
            throw call.badArgument(argument, "field \"sign\": expected a table")
        }
        if scheme == "aws-sigv4" {
            let (signer, time) = try sigV4(fields)
            if signer.placement == .query { throw fields.error("sign_in", "a request's sign signs every hop in its headers; presign with pekit.sign.aws_sigv4") }
            return { request in try signer.sign(&request, at: time ?? TimeModule.wallClock()) }
        }
        let signer = try oauth1(fields)
        return { request in try signer.sign(&request, now: TimeModule.wallClock()) }
    }

    /// The request handle at argument 1.
    static func signedRequest(_ call: LuaCall) throws -> StoredRequest {
        try RequestModule.storedRequest(at: 1, call, expected: "request (from pekit.request)")
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            setFunction(module, "pekit.sign", "aws_sigv4") { call in
                let runtime = call.runtime
                let stored = try signedRequest(call)
                guard let fields = try LuaFields.read(call, argument: 2, known: Self.sigV4Fields) else {
                    throw call.badArgument(2, "table expected with access_key, secret_key, region and service")
                }
                let (signer, time) = try sigV4(fields)
                var request = stored.request
                let explanation = try signer.sign(&request, at: time ?? TimeModule.wallClock())
                stored.request = request
                call.stack.pushValue(1)
                guard try fields.flag("explain") == true else { return 1 }
                runtime.push(.map(PekitMap(ordered: [
                    .init(key: "canonical_request", value: .text(explanation.canonicalRequest)),
                    .init(key: "string_to_sign", value: .text(explanation.stringToSign)),
                    .init(key: "signature", value: .text(explanation.signature)),
                ])), keepOrder: false)
                return 2
            }
            setFunction(module, "pekit.sign", "oauth1") { call in
                let runtime = call.runtime
                let stored = try signedRequest(call)
                guard let fields = try LuaFields.read(call, argument: 2, known: Self.oauth1Fields) else {
                    throw call.badArgument(2, "table expected with consumer_key and consumer_secret (or rsa_key)")
                }
                var request = stored.request
                let explanation = try oauth1(fields).sign(&request, now: TimeModule.wallClock())
                stored.request = request
                call.stack.pushValue(1)
                guard try fields.flag("explain") == true else { return 1 }
                runtime.push(.map(PekitMap(ordered: [
                    .init(key: "base_string", value: .text(explanation.baseString)), .init(key: "signature", value: .text(explanation.signature)),
                ])), keepOrder: false)
                return 2
            }
        }
    }
}
