import PekitCore

/// A whole body undone from the codings a `Content-Encoding` field names (gzip, x-gzip, deflate,
/// br, zstd; identity and none as they are), the last one listed undone first: for a body
/// received as it was sent (a client that, like Hurl, decodes what it did not ask libcurl to).
/// The stages are the transfer's own (`BodyDecoders`, libcurl 7.88's readings).
public enum ContentDecoding {
    /// Why a body could not be decoded.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The decoded body.
    /// - Parameters:
    ///   - body: the bytes as received.
    ///   - contentEncoding: the field's value (several fields joined with commas).
    /// - Throws: `Failure` for a coding libcurl does not know, a library this machine lacks, or
    ///   bytes a stage cannot read.
    /// - Complexity: O(n) in the decoded size.
    public static func decode(_ body: [UInt8], contentEncoding: String) throws(Failure) -> [UInt8] {
        var stages: [Int32] = []
        for name in contentEncoding.split(separator: ",").map({ Array($0.trimmingOWS.utf8) }) where !name.isEmpty {
            let known: Int32?? = name.withUnsafeBytes { ResponseReader.passes($0) ? .some(nil) : ResponseReader.stage($0).map { .some($0) } }
            guard let known else {
                throw Failure(description: "the Content-Encoding \(String(decoding: name, as: UTF8.self)) is not one libcurl decodes (gzip, deflate, br, zstd)")
            }
            if let stage = known { stages.append(stage) }
        }
        guard !stages.isEmpty else { return body }
        var out: [UInt8] = []
        let decoders: BodyDecoders
        do { decoders = try BodyDecoders(codings: stages) } catch { throw Failure(description: error.reason) }
        var failure: ResponseReader.Failure?
        body.withUnsafeBytes { bytes in
            do { _ = try decoders.write(bytes) { out.append(contentsOf: $0); return true } } catch let stopped as ResponseReader.Failure { failure = stopped } catch {}
        }
        if let failure { throw Failure(description: failure.reason) }
        return out
    }
}
