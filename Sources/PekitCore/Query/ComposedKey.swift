/// The key a `Flattener` composes as it walks: one block that segments are appended to going
/// down and cut back from coming up, lent to the sink as bytes for each pair.
///
/// Not an `[UInt8]`: cutting an array back (`removeLast(_:)`) was 7% of encoding a query, and
/// every append checked the array's uniqueness through a runtime call. Noncopyable, so the block
/// has one owner and is freed with it; a flattener that needs another's key copies its bytes.
struct ComposedKey: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The key's length in bytes.
    private(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The key's bytes, valid until the key next changes.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The key's bytes as an array (for a rule that takes the key as a value).
    var array: [UInt8] { Array(bytes) }

    /// Room for `n` more bytes; the block doubles, so composing is linear.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        var grown = capacity * 2
        while grown - count < n { grown *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        ByteCopy.copy(from: source, count: bytes.count, to: base + count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    /// `name` appended as `encoder` encodes it, written straight into the block.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>, encodedBy encoder: PercentEncoder) {
        reserve(PercentEncoder.maximumEncodedCount(name.count))
        count += encoder.fill(base + count, from: name)
    }

    /// Cuts the key back to its first `n` bytes (n ≤ count).
    @inline(__always)
    mutating func removeAll(keepingFirst n: Int) {
        assert(n >= 0 && n <= count)
        count = n
    }

    /// The key made `bytes`.
    mutating func set(_ bytes: [UInt8]) {
        count = 0
        append(bytes)
    }
}
