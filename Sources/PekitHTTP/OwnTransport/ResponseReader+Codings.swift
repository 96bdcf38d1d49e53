import CDecodeShim
import PekitCore

/// Transfer-Encoding's codings, read as libcurl 7.88 reads them (`content_encoding.c`):
/// `chunked` is the framing, every other name a decoding stage of the body.
extension ResponseReader {
    /// Transfer-Encoding's codings as libcurl's Curl_build_unencoding_stack reads them: chunked
    /// is the framing; any other name is a decoding stage (more than 5 refused).
    mutating func codings(_ value: UnsafeRawBufferPointer) throws(Failure) {
        var i = 0
        repeat {
            while i < value.count, value[i] == 0x20 || value[i] == 0x09 || value[i] == 0x2C { i += 1 }
            let start = i
            var length = 0
            while i < value.count, value[i] != 0x2C {
                if !Self.isSpace(value[i]) { length = i - start + 1 }
                i += 1
            }
            if length == 7, ASCII.equals(UnsafeRawBufferPointer(rebasing: value[start..<start + 7]), ignoringCase: "chunked") {
                chunked = true
            } else if length > 0 {
                if codings >= 5 { throw Failure(code: 61, reason: "Reject response due to more than 5 content encodings") }
                codings += 1
                let name = UnsafeRawBufferPointer(rebasing: value[start..<start + length])
                if Self.passes(name) {
                    // identity: the bytes as they are.
                } else if let stage = Self.stage(name) {
                    stages.append(stage)
                } else {
                    unknownCoding = true
                }
            }
        } while i < value.count
    }

    /// libcurl 7.88's identity stage names.
    static func passes(_ name: UnsafeRawBufferPointer) -> Bool {
        ASCII.equals(name, ignoringCase: "identity") || ASCII.equals(name, ignoringCase: "none")
    }

    /// The stage libcurl 7.88 decodes for a name (content_encoding.c's table, with this build's
    /// libraries), or nil.
    static func stage(_ name: UnsafeRawBufferPointer) -> Int32? {
        if ASCII.equals(name, ignoringCase: "gzip") || ASCII.equals(name, ignoringCase: "x-gzip") { return Int32(PEKIT_DECODE_GZIP) }
        if ASCII.equals(name, ignoringCase: "deflate") { return Int32(PEKIT_DECODE_DEFLATE) }
        if ASCII.equals(name, ignoringCase: "br") { return Int32(PEKIT_DECODE_BROTLI) }
        if ASCII.equals(name, ignoringCase: "zstd") { return Int32(PEKIT_DECODE_ZSTD) }
        return nil
    }

    /// libcurl's error stage, met by the first body byte of a response with an unknown coding.
    static let unknownCodingFailure = Failure(code: 61, reason: "Unrecognized content encoding type. libcurl understands deflate, gzip, br, zstd content encodings.")

    /// The decoding stages' turn before body bytes go to the exchange: an unknown coding fails
    /// (any unknown name fails first, as libcurl's error stage does), and the decoders of the
    /// others are made with the first byte.
    mutating func checkStages() throws(Failure) {
        if unknownCoding { throw Self.unknownCodingFailure }
        if decoders == nil && !stages.isEmpty { decoders = try BodyDecoders(codings: stages) }
    }
}
