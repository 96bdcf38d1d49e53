import CLua
import CLuaShim
import Glibc
import PekitCore
import PekitCrypto

/// `pekit.sign`: signs a built request in place. `aws_sigv4(req, options)` as botocore signs;
/// with `explain = true` it also returns the canonical request, the string to sign and the
/// signature.
extension LuaRuntime {
    static let sigV4Fields = ["access_key", "secret_key", "session_token", "region", "service", "time", "payload", "sign_in", "expires", "explain"]

    func installSignModule(into pekit: Int32) {
        stack.newTable()
        setFunction(-1, "pekit.sign", "aws_sigv4") { call in
            let runtime = call.runtime
            guard let id = runtime.handleID(at: 1, metatable: Self.requestMetatable), let stored = runtime.requestState.requests[id] else {
                throw call.typeError(1, expected: "request (from pekit.request)")
            }
            guard let fields = try LuaFields.read(call, argument: 2, known: Self.sigV4Fields) else {
                throw call.badArgument(2, "table expected with access_key, secret_key, region and service")
            }
            func required(_ name: String) throws -> String {
                guard let value = try fields.string(name), !value.isEmpty else { throw fields.error(name, "required (a non-empty string)") }
                return value
            }
            var signer = AWSSigV4(accessKey: try required("access_key"), secretKey: try required("secret_key"),
                                  sessionToken: try fields.string("session_token"), region: try required("region"), service: try required("service"))
            if let payload = try fields.choice("payload", AWSSigV4.Payload.allCases.map(\.rawValue)) { signer.payload = AWSSigV4.Payload(rawValue: payload) ?? .hash }
            if let place = try fields.choice("sign_in", AWSSigV4.Placement.allCases.map(\.rawValue)) { signer.placement = AWSSigV4.Placement(rawValue: place) ?? .header }
            if let expires = try fields.integer("expires", in: 1...604_800) { signer.expires = expires }
            let time: Double
            if let fixed = try fields.number("time", in: 0...253_402_300_799, expected: "Unix seconds (a number from 0)") {
                time = fixed
            } else {
                var spec = timespec()
                clock_gettime(CLOCK_REALTIME, &spec)
                time = Double(spec.tv_sec)
            }
            var request = stored.request
            let explanation = try signer.sign(&request, at: time)
            runtime.requestState.requests[id] = StoredRequest(request: request, sendDefaults: stored.sendDefaults)
            call.stack.pushValue(1)
            guard try fields.flag("explain") == true else { return 1 }
            runtime.push(.map(PekitMap(ordered: [
                .init(key: "canonical_request", value: .text(explanation.canonicalRequest)),
                .init(key: "string_to_sign", value: .text(explanation.stringToSign)),
                .init(key: "signature", value: .text(explanation.signature)),
            ])), keepOrder: false)
            return 2
        }
        stack.rawSet(pekit, "sign")
    }
}
