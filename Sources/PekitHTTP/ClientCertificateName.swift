extension SendOptions {
    /// curl's `-E`/`--cert` value read as its tool reads it (`parse_cert_parameter`, curl
    /// 7.88's tool_getparam.c): `FILE:PASSPHRASE`, where `\:` is a colon and `\\` a backslash in
    /// the name; a `pkcs11:` URI, or a value with neither `:` nor `\`, is the name as it is.
    /// - Returns: the certificate's name and the passphrase, nil when none follows a colon.
    package static func certificateAndPassphrase(_ text: String) -> (certificate: String, passphrase: String?) {
        let bytes = Array(text.utf8)
        if bytes.count >= 7 && String(decoding: bytes[..<7], as: UTF8.self).lowercased() == "pkcs11:" { return (text, nil) }
        if !bytes.contains(0x3A) && !bytes.contains(0x5C) { return (text, nil) }
        var name: [UInt8] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x5C:
                i += 1
                // A backslash before : or \ escapes it; before anything else, or at the end, it is kept.
                if i == bytes.count { name.append(0x5C) } else if bytes[i] == 0x5C || bytes[i] == 0x3A { name.append(bytes[i]); i += 1 } else {
                    name += [0x5C, bytes[i]]; i += 1
                }
            case 0x3A:
                let rest = bytes[(i + 1)...]
                return (String(decoding: name, as: UTF8.self), rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self))
            default:
                name.append(bytes[i]); i += 1
            }
        }
        return (String(decoding: name, as: UTF8.self), nil)
    }
}
