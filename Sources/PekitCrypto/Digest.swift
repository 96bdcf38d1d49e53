import CCryptoShim

/// Message digests and HMAC over OpenSSL's libcrypto (loaded on first use). Bytes in, bytes out.
public enum Digest {
    /// The digest of `data`. O(n).
    /// - Throws: `CryptoError` when libcrypto cannot be loaded.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: [UInt8]) throws -> [UInt8] {
        let stream = try HashStream(algorithm)
        try stream.update(data)
        return try stream.finish()
    }

    /// HMAC (RFC 2104) of `data` under `key`. O(n).
    /// - Throws: `CryptoError` when libcrypto cannot be loaded, or the key is over 2 GiB.
    public static func hmac(_ algorithm: DigestAlgorithm, key: [UInt8], _ data: [UInt8]) throws -> [UInt8] {
        let md = try algorithm.evp()
        guard key.count <= Int(Int32.max) else { throw CryptoError("an HMAC key of \(key.count) bytes is too long") }
        var out = [UInt8](repeating: 0, count: algorithm.size)
        let ok = key.withUnsafeBytes { k in
            data.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { o in
                    pekit_crypto_hmac(md, k.baseAddress, Int32(key.count), d.baseAddress, data.count, o.baseAddress)
                }
            }
        }
        guard ok == 1 else { throw CryptoError("HMAC-\(algorithm.rawValue.uppercased()) failed in libcrypto") }
        return out
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths (for comparing
    /// signatures and MACs).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) throws -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        try CryptoError.loadLibcrypto()
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in pekit_crypto_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }

    /// `count` bytes from OpenSSL's cryptographically secure generator.
    /// - Throws: `CryptoError` when libcrypto cannot be loaded or its generator fails.
    public static func random(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= 1 << 20 else { throw CryptoError("random takes 0 to 1048576 bytes, not \(count)") }
        try CryptoError.loadLibcrypto()
        var out = [UInt8](repeating: 0, count: count)
        guard count == 0 || out.withUnsafeMutableBufferPointer({ pekit_crypto_random($0.baseAddress, Int32(count)) }) == 1 else {
            throw CryptoError("libcrypto's random generator failed")
        }
        return out
    }
}

/// A digest computed over data given in parts (`update` as often as needed, then `finish`).
public final class HashStream {
    /// The digest computed.
    public let algorithm: DigestAlgorithm
    private var context: UnsafeMutableRawPointer?

    /// - Throws: `CryptoError` when libcrypto cannot be loaded.
    public init(_ algorithm: DigestAlgorithm) throws {
        self.algorithm = algorithm
        guard let context = pekit_crypto_hash_new(try algorithm.evp()) else { throw CryptoError("libcrypto could not start a \(algorithm.rawValue) digest") }
        self.context = context
    }

    deinit { if let context { pekit_crypto_hash_free(context) } }

    /// Adds `data`. O(n).
    /// - Throws: `CryptoError` after `finish`.
    public func update(_ data: [UInt8]) throws {
        try data.withUnsafeBytes { try update($0) }
    }

    /// Adds the bytes at `data`.
    public func update(_ data: UnsafeRawBufferPointer) throws {
        guard let context else { throw CryptoError("the \(algorithm.rawValue) digest is already finished") }
        guard data.isEmpty || pekit_crypto_hash_update(context, data.baseAddress, data.count) == 1 else {
            throw CryptoError("the \(algorithm.rawValue) digest failed in libcrypto")
        }
    }

    /// The digest; the stream cannot be used after.
    /// - Throws: `CryptoError` when called twice.
    public func finish() throws -> [UInt8] {
        guard let context else { throw CryptoError("the \(algorithm.rawValue) digest is already finished") }
        defer { pekit_crypto_hash_free(context); self.context = nil }
        var out = [UInt8](repeating: 0, count: algorithm.size)
        guard out.withUnsafeMutableBufferPointer({ pekit_crypto_hash_final(context, $0.baseAddress) }) == 1 else {
            throw CryptoError("the \(algorithm.rawValue) digest failed in libcrypto")
        }
        return out
    }
}
