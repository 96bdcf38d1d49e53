import PekitCore

extension JWT {
    /// Verifies `token` (as `verify(_:key:options:)`) and reads its claims as `T`: registered
    /// claims (`exp`, `iat`, `sub`) and the application's own, in one `Decodable` type.
    /// - Throws: `VerificationError` for a token that fails a check; `DecodingError` naming the
    ///   claim that `T` cannot read.
    public static func verify<T: Decodable>(_ token: String, key: [UInt8], options: Options, as type: T.Type) throws -> T {
        try PekitValueDecoder().decode(type, from: verify(token, key: key, options: options))
    }

    /// A token signed for the claims an `Encodable` value holds (its properties, in order).
    /// - Throws: the value's encoding error; `VerificationError` when the claims are not a map.
    public static func encode<T: Encodable>(claims: T, key: [UInt8], algorithm: Algorithm) throws -> String {
        try encode(claims: PekitValueEncoder().encode(claims), key: key, algorithm: algorithm)
    }
}
