/// The query itself: each pair encoded into it as it comes (`Policy.queryString`), straight
/// into the query's own buffer (no scratch copy, no array append per piece: issue 47).
package final class QueryWriter: QueryPairSink {
    // The encoders as stored values beside a flag, not optionals: binding an optional copied
    // the encoder (a retain and a release for every key and value).
    private let keyEncoder: PercentEncoder, encodesKeys: Bool
    private let valueEncoder: PercentEncoder, encodesValues: Bool
    private let values: ValueEncoding
    // The prefix, separator and assign bytes in one block the writer owns: reading an array
    // property of a class retains and releases its buffer, twice a pair (a tenth of encoding).
    private let punctuation: UnsafeMutablePointer<UInt8>
    private let prefix: UnsafeBufferPointer<UInt8>, separator: UnsafeBufferPointer<UInt8>, assign: UnsafeBufferPointer<UInt8>
    // Unchecked: the writer is used by one flattener at a time, and the run-time exclusivity
    // checks on every write were a tenth of encoding a query.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 4096
    /// Whether a pair was written (the prefix comes before the first, the separator between).
    @exclusivity(unchecked) private var started = false

    package init(policy: Policy) {
        let keys = policy.encoder(for: policy.encodeKeys)
        values = ValueEncoding(policy)
        keyEncoder = keys ?? PercentEncoder(allowed: .unreserved)
        encodesKeys = keys != nil
        valueEncoder = values.encoder ?? PercentEncoder(allowed: .unreserved)
        encodesValues = values.encoder != nil
        let pieces = [policy.prefix.bytes, policy.separator.bytes, policy.assign.bytes]
        punctuation = .allocate(capacity: max(1, pieces.reduce(0) { $0 + $1.count }))
        var at = 0
        var lent: [UnsafeBufferPointer<UInt8>] = []
        for piece in pieces {
            let start = punctuation + at
            start.initialize(from: piece, count: piece.count)
            lent.append(UnsafeBufferPointer(start: start, count: piece.count))
            at += piece.count
        }
        prefix = lent[0]; separator = lent[1]; assign = lent[2]
        buffer = CHeap.allocate(capacity)
    }

    deinit {
        CHeap.release(buffer)
        punctuation.deallocate()
    }


    /// Room for `n` more bytes (the buffer doubles, so writing the query is linear).
    @inline(__always)
    private func reserve(_ n: Int) {
        guard capacity - count < n else { return }
        grow(n)
    }

    /// The buffer made larger by the C library's realloc: a large block is moved by remapping
    /// its pages, not by copying them into new ones (copying and faulting in every doubling
    /// was a sixth of encoding a 5.6 MB query).
    private func grow(_ n: Int) {
        let grown = max(capacity * 2, count + n)
        buffer = CHeap.reallocate(buffer, count: count, capacity: grown)
        capacity = grown
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        put(bytes)
    }

    /// `bytes` written where room was reserved.
    @inline(__always)
    private func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        ByteCopy.copy(from: base, count: bytes.count, to: buffer + count)
        count += bytes.count
    }

    private func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }

    /// A key's or a value's bytes, encoded as the policy encodes keys or values.
    @inline(__always)
    private func append(_ bytes: UnsafeBufferPointer<UInt8>, key: Bool) {
        guard key ? encodesKeys : encodesValues else { return write(bytes) }
        reserve(PercentEncoder.maximumEncodedCount(bytes.count))
        count += key ? keyEncoder.fill(buffer + count, from: bytes) : valueEncoder.fill(buffer + count, from: bytes)
    }

    /// Keys may come encoded when the key encoder is byte-local (a kept `%XX` depends on the
    /// bytes after the `%`).
    package var composingKeyEncoder: PercentEncoder? { encodesKeys && !keyEncoder.keepsValidEscapes ? keyEncoder : nil }

    /// The prefix before the first pair or the separator before the others, then the key, then
    /// with `assigning` the assign bytes (a key composed encoded goes in with them, one
    /// reservation for the three).
    private func start(_ key: UnsafeBufferPointer<UInt8>, encoded: Bool, assigning: Bool) {
        let lead = started ? separator : prefix
        started = true
        if encoded {
            reserve(lead.count + key.count + assign.count)
            put(lead)
            put(key)
        } else {
            write(lead)
            append(key, key: true)
            reserve(assign.count)
        }
        if assigning { put(assign) }
    }

    package func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, text: UnsafeBufferPointer<UInt8>) {
        // Comma rules split values at their commas (ValueEncoding): the general path.
        guard !values.rawCommas else { return add(key: key, keyIsEncoded: keyIsEncoded, value: ByteString(bytes: text), commaParts: nil) }
        start(key, encoded: keyIsEncoded, assigning: true)
        append(text, key: false)
    }

    package func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, value: ByteString?, commaParts: [ByteString]?) {
        guard let value else { return start(key, encoded: keyIsEncoded, assigning: false) }
        if commaParts == nil && !values.rawCommas {
            return value.bytes.withUnsafeBufferPointer { add(key: key, keyIsEncoded: keyIsEncoded, text: $0) }
        }
        start(key, encoded: keyIsEncoded, assigning: true)
        write(values.encode(value, commaParts: commaParts) ?? [])
    }

    /// The query written so far.
    package func finish() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            if let base = out.baseAddress, count > 0 { base.initialize(from: buffer, count: count) }
            initialized = count
        }
    }
}
