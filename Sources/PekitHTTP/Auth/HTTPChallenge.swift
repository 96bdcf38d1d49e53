import PekitCore

/// What a 401's `WWW-Authenticate` fields offer, read as curl 7.88 reads them (http.c,
/// `Curl_http_input_auth`): at the start of each field and after each comma, a scheme's name
/// followed by a space, a comma or the end; and the first Digest challenge's parameters
/// (vauth/digest.c, `Curl_auth_decode_digest_http_message`).
struct HTTPChallenge: Equatable {
    /// The schemes offered that pekit answers or knows of.
    var offersBasic = false
    var offersDigest = false
    /// NTLM or Negotiate (curl's first choices with --anyauth), which pekit does not speak.
    var offersOther = false
    /// The first Digest field's parameters, or nil (none, or one curl refuses: no nonce, an
    /// algorithm it does not know, a `-sess` algorithm without qop).
    var digest: DigestChallenge?

    init(_ fields: [String]) {
        for field in fields {
            let bytes = Array(field.utf8)
            var i = 0
            func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
            skipSpace()
            while i < bytes.count {
                func starts(_ name: String) -> Bool {
                    let n = Array(name.utf8)
                    guard i + n.count <= bytes.count, zip(bytes[i..<i + n.count], n).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return false }
                    // is_valid_auth_separator: the end, a space or a comma after the name.
                    return i + n.count == bytes.count || [0x20, 0x09, 0x2C, 0x0D, 0x0A].contains(bytes[i + n.count])
                }
                if starts("Digest") {
                    // Only the first Digest field counts ("Ignoring duplicate digest auth header").
                    if !offersDigest {
                        offersDigest = true
                        digest = DigestChallenge(parsing: Array(bytes[(i + 6)...]))
                    }
                } else if starts("Basic") {
                    offersBasic = true
                } else if starts("NTLM") || starts("Negotiate") {
                    offersOther = true
                }
                // There may be several schemes on one line: on to the next comma.
                while i < bytes.count, bytes[i] != 0x2C { i += 1 }
                if i < bytes.count { i += 1 }
                while i < bytes.count, [0x20, 0x09, 0x0D, 0x0A, 0x0B, 0x0C].contains(bytes[i]) { i += 1 }
            }
        }
    }
}

/// A Digest challenge's parameters (RFC 7616 §3.3), as curl keeps them.
struct DigestChallenge: Equatable {
    var realm: String?
    var nonce: String
    var opaque: String?
    /// `auth` when offered, else `auth-int`, else nil.
    var qop: String?
    /// As the server wrote it (curl writes it back so), and what it names.
    var algorithm: String?
    var hash: String
    var session: Bool
    var userhash: Bool

    /// curl's reading of the parameters after `Digest`: `name=value` or `name="value"` (a
    /// backslash escapes the next byte in quotes), separated by commas and blanks; a later
    /// parameter of a name wins. nil where curl refuses the challenge.
    init?(parsing bytes: [UInt8]) {
        var values: [String: String] = [:]
        var qopOffered: [String] = []
        var i = 0
        func skipBlanks() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        while true {
            skipBlanks()
            // Curl_auth_digest_get_pair: a name up to '=', then a value.
            var name: [UInt8] = []
            while i < bytes.count, bytes[i] != 0x3D { name.append(bytes[i]); i += 1 }
            guard i < bytes.count else { break }
            i += 1
            var value: [UInt8] = [], quoted = false, escape = false, ok = true
            if i < bytes.count, bytes[i] == 0x22 { quoted = true; i += 1 }
            scan: while i < bytes.count {
                let c = bytes[i]
                if !escape {
                    switch c {
                    case 0x5C where quoted: escape = true; i += 1; continue scan
                    case 0x2C where !quoted: break scan
                    case 0x0D, 0x0A:
                        if quoted { ok = false }
                        break scan
                    case 0x22:
                        if quoted { i += 1; break scan }
                        ok = false; break scan
                    default: break
                    }
                }
                escape = false
                value.append(c)
                i += 1
            }
            guard ok, !escape else { break }
            let key = String(decoding: name, as: UTF8.self).lowercased()
            let text = String(decoding: value, as: UTF8.self)
            if key == "qop" {
                qopOffered = text.split(separator: ",").map { $0.drop { $0 == " " || $0 == "\t" }.lowercased() }
            } else {
                values[key] = text
            }
            skipBlanks()
            if i < bytes.count, bytes[i] == 0x2C { i += 1 }
        }
        guard let nonce = values["nonce"] else { return nil }
        self.nonce = nonce
        realm = values["realm"]
        opaque = values["opaque"]
        qop = qopOffered.contains("auth") ? "auth" : qopOffered.contains("auth-int") ? "auth-int" : nil
        userhash = values["userhash"]?.lowercased() == "true"
        algorithm = values["algorithm"]
        switch (values["algorithm"] ?? "MD5").lowercased() {
        case "md5": (hash, session) = ("MD5", false)
        case "md5-sess": (hash, session) = ("MD5", true)
        case "sha-256": (hash, session) = ("SHA-256", false)
        case "sha-256-sess": (hash, session) = ("SHA-256", true)
        case "sha-512-256": (hash, session) = ("SHA-512-256", false)
        case "sha-512-256-sess": (hash, session) = ("SHA-512-256", true)
        default: return nil
        }
        if session && qop == nil { return nil }
    }

    /// The `Authorization` value curl 7.88 sends (vauth/digest.c,
    /// `auth_create_digest_http_message`), for `method` and `uri` (the request target).
    /// - Parameters:
    ///   - hash: the named algorithm (`MD5`, `SHA-256`, `SHA-512-256`) over bytes.
    ///   - nc: the nonce count (the first answer is 1).
    ///   - cnonce: the client nonce (curl: base64 of 32 random hex digits).
    func authorization(user: String, password: String, method: String, uri: String, nc: Int, cnonce: String,
                       hash: (String, [UInt8]) throws -> [UInt8]) throws -> String {
        func h(_ text: String) throws -> String { String(decoding: Hex.encode(try hash(self.hash, Array(text.utf8))), as: UTF8.self) }
        let realm = self.realm ?? ""
        var ha1 = try h("\(user):\(realm):\(password)")
        if session { ha1 = try h("\(ha1):\(nonce):\(cnonce)") }
        var a2 = "\(method):\(uri)"
        // curl's auth-int hashes an empty body, whatever the request's (it supports no other).
        if qop == "auth-int" { a2 += ":" + (try h("")) }
        let ha2 = try h(a2)
        let hex = String(nc, radix: 16)
        let ncText = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        let response = try qop.map { try h("\(ha1):\(nonce):\(ncText):\(cnonce):\($0):\(ha2)") } ?? h("\(ha1):\(nonce):\(ha2)")
        let name = userhash ? try h("\(user):\(realm)") : user
        var out = "Digest username=\"\(Self.quoted(name))\", realm=\"\(Self.quoted(realm))\", nonce=\"\(Self.quoted(nonce))\", uri=\"\(uri)\", "
        if let qop { out += "cnonce=\"\(cnonce)\", nc=\(ncText), qop=\(qop), " }
        out += "response=\"\(response)\""
        if let opaque { out += ", opaque=\"\(Self.quoted(opaque))\"" }
        if let algorithm { out += ", algorithm=\(algorithm)" }
        if userhash { out += ", userhash=true" }
        return out
    }

    /// curl's auth_digest_string_quoted: `"` and `\` escaped with a backslash.
    static func quoted(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
