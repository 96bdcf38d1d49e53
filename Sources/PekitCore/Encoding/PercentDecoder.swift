/// Decodes percent-encoded text (RFC 3986 §2.1), strictly or leniently.
///
/// Strict mode rejects `%` not followed by two hex digits with an error naming the byte position
/// and the sequence; lenient mode keeps such sequences as they are, as browsers do (WHATWG URL
/// "percent-decode"). `+` becomes a space only when asked (form data), and the non-standard
/// `%uXXXX` form of old JavaScript `escape()` only behind `decodesUnicodeEscapes`.
///
/// Cost: one pass, one allocation of at most the input size.
public struct PercentDecoder: Sendable, Equatable {
    /// What to do with a `%` that does not start a valid escape.
    public enum Mode: String, Sendable, Equatable {
        /// Throw `PercentDecodingError`.
        case strict
        /// Keep the bytes as they are.
        case lenient
    }

    /// Strict or lenient.
    public var mode: Mode
    /// Decode `+` as a space (application/x-www-form-urlencoded).
    public var plusAsSpace: Bool
    /// Throw when the decoded bytes are not valid UTF-8 (in either mode).
    public var requiresUTF8: Bool
    /// Decode `%uXXXX` (and `%uD83D%uDE00` surrogate pairs) to UTF-8.
    public var decodesUnicodeEscapes: Bool

    /// Creates a decoder; the defaults are lenient, `+` kept, any bytes allowed, no `%u`.
    public init(mode: Mode = .lenient, plusAsSpace: Bool = false, requiresUTF8: Bool = false,
                decodesUnicodeEscapes: Bool = false) {
        self.mode = mode
        self.plusAsSpace = plusAsSpace
        self.requiresUTF8 = requiresUTF8
        self.decodesUnicodeEscapes = decodesUnicodeEscapes
    }

    /// Decodes `string` into a `String`.
    /// - Throws: `PercentDecodingError`; `.invalidUTF8` whenever the result is not UTF-8,
    ///   since a Swift `String` cannot hold it (use `decode(bytes:)` for raw bytes).
    public func decode(_ string: String) throws -> String {
        var string = string
        var strictUTF8 = self
        strictUTF8.requiresUTF8 = true
        let bytes = try string.withUTF8 { try strictUTF8.decode(bytes: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes bytes into bytes.
    /// - Throws: `PercentDecodingError` in strict mode, or when UTF-8 is required and not met.
    public func decode<Bytes: Collection>(bytes: Bytes) throws -> [UInt8] where Bytes.Element == UInt8 {
        if let result = try bytes.withContiguousStorageIfAvailable({ try decode(bytes: $0) }) { return result }
        return try Array(bytes).withUnsafeBufferPointer { try decode(bytes: $0) }
    }

    /// Decodes bytes into bytes.
    /// - Throws: `PercentDecodingError` in strict mode, or when UTF-8 is required and not met.
    public func decode(bytes input: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        try decode(bytes: input, fast: takesFastPath)
    }

    /// Decodes with the fast path when `fast` (PercentDecoder+FastPath.swift), else the general loop.
    func decode(bytes input: UnsafeBufferPointer<UInt8>, fast: Bool, level: PercentKernelLevel = .best) throws -> [UInt8] {
        var failure: PercentDecodingError?
        let output = [UInt8](unsafeUninitializedCapacity: input.count) { out, written in
            written = 0
            guard let base = input.baseAddress, let dst = out.baseAddress else { return }
            if fast, let count = runKernel(base, input.count, dst, level: level) {
                written = count
                return
            }
            do { written = try run(base, input.count, dst) } catch let error as PercentDecodingError { failure = error } catch {}
        }
        if let failure { throw failure }
        if requiresUTF8, let bad = output.withUnsafeBufferPointer(UTF8Validation.firstInvalidIndex) {
            throw utf8Error(input, outputIndex: bad)
        }
        return output
    }

    // The decoding loop; returns the number of bytes written (never more than n, so `dst` has room).
    // With `origins`, records for each output byte the input index it came from (error path only).
    private func run(_ src: UnsafePointer<UInt8>, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>,
                     origins: UnsafeMutablePointer<Int>? = nil) throws(PercentDecodingError) -> Int {
        var i = 0, o = 0
        while i < n {
            if let origins {
                // Every byte written in this step comes from input index i.
                for k in o..<min(o + 4, n) { origins[k] = i }
            }
            let byte = src[i]
            if byte != 0x25 && (byte != 0x2B || !plusAsSpace) {
                dst[o] = byte; o &+= 1; i &+= 1
                continue
            }
            if byte == 0x2B { dst[o] = 0x20; o &+= 1; i &+= 1; continue }
            // A '%'.
            if decodesUnicodeEscapes, i + 1 < n, src[i + 1] | 0x20 == 0x75 {
                if let (scalar, used) = try unicodeEscape(src, i, n) {
                    for unit in UTF8.encode(scalar)! { dst[o] = unit; o &+= 1 }
                    i += used
                } else {
                    dst[o] = byte; o &+= 1; i &+= 1
                }
                continue
            }
            if i + 2 < n, let high = HexDigit.value(src[i + 1]), let low = HexDigit.value(src[i + 2]) {
                dst[o] = high << 4 | low; o &+= 1; i &+= 3
                continue
            }
            if mode == .strict {
                let end = min(i + 3, n)
                let reason: PercentDecodingError.Reason = end - i < 3 && Self.allHex(src, i + 1, end) ? .truncatedEscape : .invalidEscape
                throw PercentDecodingError(reason: reason, position: i + 1, sequence: Array(UnsafeBufferPointer(start: src + i, count: end - i)))
            }
            dst[o] = byte; o &+= 1; i &+= 1
        }
        return o
    }

    private static func allHex(_ src: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        (from..<to).allSatisfy { HexDigit.value(src[$0]) != nil }
    }

    // Reads `%uXXXX` (or a `%uD8xx%uDCxx` pair) at `i`: the scalar and the bytes consumed, or nil
    // in lenient mode when it is malformed.
    private func unicodeEscape(_ src: UnsafePointer<UInt8>, _ i: Int, _ n: Int) throws(PercentDecodingError) -> (Unicode.Scalar, Int)? {
        func unit(at j: Int) -> UInt32? {
            guard j + 6 <= n, src[j] == 0x25, src[j + 1] | 0x20 == 0x75 else { return nil }
            var value: UInt32 = 0
            for k in 2..<6 {
                guard let digit = HexDigit.value(src[j + k]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        func fail(_ reason: PercentDecodingError.Reason, _ length: Int) throws(PercentDecodingError) -> (Unicode.Scalar, Int)? {
            guard mode == .strict else { return nil }
            throw PercentDecodingError(reason: reason, position: i + 1,
                                       sequence: Array(UnsafeBufferPointer(start: src + i, count: min(length, n - i))))
        }
        guard let first = unit(at: i) else { return try fail(.invalidUnicodeEscape, 6) }
        if (0xD800...0xDBFF).contains(first) {
            guard let second = unit(at: i + 6), (0xDC00...0xDFFF).contains(second) else { return try fail(.loneSurrogate, 6) }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { return try fail(.loneSurrogate, 12) }
            return (scalar, 12)
        }
        guard let scalar = Unicode.Scalar(first) else { return try fail(.loneSurrogate, 6) }
        return (scalar, 6)
    }

    // Maps the first bad output byte back to the escapes the user wrote. Error path only.
    private func utf8Error(_ input: UnsafeBufferPointer<UInt8>, outputIndex bad: Int) -> PercentDecodingError {
        var lenient = self
        lenient.mode = .lenient
        var origins = [Int](repeating: 0, count: input.count)
        var output = [UInt8](repeating: 0, count: input.count)
        let written = origins.withUnsafeMutableBufferPointer { origins in
            output.withUnsafeMutableBufferPointer { out in
                (try? lenient.run(input.baseAddress!, input.count, out.baseAddress!, origins: origins.baseAddress)) ?? 0
            }
        }
        // The bad lead byte and the continuation bytes that follow it.
        var last = bad + 1
        while last < written && last < bad + 4 && output[last] & 0xC0 == 0x80 { last += 1 }
        let from = origins[bad]
        let to = last < written ? origins[last] : input.count
        return PercentDecodingError(reason: .invalidUTF8, position: from + 1, sequence: Array(input[from..<to]))
    }
}
