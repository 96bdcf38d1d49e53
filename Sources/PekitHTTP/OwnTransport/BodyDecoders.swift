import CDecodeShim
import PekitCore

/// The decoding stages of a response body whose Transfer-Encoding names codings libcurl 7.88
/// decodes (gzip, x-gzip, deflate, br, zstd), read in pekit's own transfer as libcurl reads them,
/// so that a response with one is never handed to libcurl, which would send the request again.
/// The last coding listed was applied last, so it is undone first. Debian's libraries do the
/// work (`CDecodeShim`, loaded when a response first needs one).
final class BodyDecoders {
    private var decoders: [OpaquePointer] = []
    /// Set while `write` runs: where the last stage's bytes go (false: stop), and what stopped a stage.
    private var sink: ((UnsafeRawBufferPointer) -> Bool)?
    private var stopped: ResponseReader.Failure?

    /// The stages for `codings`, given in the order the field lists them (`PEKIT_DECODE_*`).
    /// - Throws: a failure naming a library this machine does not have.
    init(codings: [Int32]) throws(ResponseReader.Failure) {
        for kind in codings.reversed() {
            guard let decoder = pekit_decoder_new(kind) else {
                decoders.forEach { pekit_decoder_free($0) }
                let library = kind == PEKIT_DECODE_BROTLI ? "libbrotlidec.so.1" : kind == PEKIT_DECODE_ZSTD ? "libzstd.so.1" : "libz.so.1"
                throw ResponseReader.Failure(code: 61, reason: "the response's transfer coding needs \(library), which is not on this machine")
            }
            decoders.append(decoder)
        }
    }

    deinit { decoders.forEach { pekit_decoder_free($0) } }

    /// Decodes `bytes` through every stage into `exchange`; false once the exchange asked to stop.
    /// - Throws: libcurl's failure for bytes a stage cannot decode (61) or bytes after a stage's
    ///   end (23).
    func write<Sink: ResponseSink>(_ bytes: UnsafeRawBufferPointer, into exchange: Sink) throws(ResponseReader.Failure) -> Bool {
        try write(bytes) { exchange.bodyBytes($0) }
    }

    /// Decodes `bytes` through every stage into `sink`; false once the sink asked to stop.
    func write(_ bytes: UnsafeRawBufferPointer, to sink: @escaping (UnsafeRawBufferPointer) -> Bool) throws(ResponseReader.Failure) -> Bool {
        self.sink = sink
        defer { self.sink = nil }
        stopped = nil
        let accepted = feed(0, bytes)
        if let stopped { throw stopped }
        return accepted
    }

    /// Stage `index`'s input (past the last stage: the exchange's body); false when it stopped.
    private func feed(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard index < decoders.count else { return sink?(bytes) ?? false }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        let context = StageContext(chain: self, next: index + 1)
        let code = withExtendedLifetime(context) {
            pekit_decoder_write(decoders[index], base, bytes.count, { context, out, count in
                guard let context, let out else { return 0 }
                let stage = Unmanaged<StageContext>.fromOpaque(context).takeUnretainedValue()
                return stage.chain.feed(stage.next, UnsafeRawBufferPointer(start: out, count: count)) ? 1 : 0
            }, Unmanaged.passUnretained(context).toOpaque())
        }
        switch code {
        case 0: return true
        case 61:
            let words = pekit_decoder_error(decoders[index]).map { cText($0) }
            stopped = stopped ?? ResponseReader.Failure(code: 61, reason: words.map { "Error while processing content unencoding: \($0)" }
                                                        ?? "Unrecognized or bad HTTP Content or Transfer-Encoding")
            return false
        case 23:
            // Bytes after the stream's end: what libcurl calls a write error.
            stopped = stopped ?? ResponseReader.Failure(code: 23, reason: "Failed writing received data to disk/application")
            return false
        default:
            // The next stage or the exchange stopped (the exchange keeps its own error).
            return false
        }
    }

    /// What the C callback is given: the chain and the stage its bytes go to.
    private final class StageContext {
        let chain: BodyDecoders
        let next: Int
        init(chain: BodyDecoders, next: Int) { self.chain = chain; self.next = next }
    }
}
