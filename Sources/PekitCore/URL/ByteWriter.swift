/// The fast path's output: bytes in memory of its own, checked for room at each write (one
/// compare, no uniqueness check as an array's append makes), grown when full.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `base` is this writer's to free (memory it was lent is not).
    private var owned: Bool
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        owned = true
    }

    /// A writer that starts in `memory` (which must outlive it) and moves to memory of its own
    /// when that is full.
    init(lent memory: UnsafeMutableBufferPointer<UInt8>) {
        if let start = memory.baseAddress, memory.count >= 16 {
            base = start; capacity = memory.count; owned = false
        } else {
            capacity = 64; base = .allocate(capacity: capacity); owned = true
        }
    }

    deinit { if owned { base.deallocate() } }

    /// Takes back the bytes after the first `n`.
    mutating func truncate(to n: Int) {
        precondition(n >= 0 && n <= count, "ByteWriter.truncate past its end")
        count = n
    }

    /// The bytes written so far (valid until the next write).
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    subscript(i: Int) -> UInt8 { precondition(i >= 0 && i < count); return base[i] }

    /// Makes room for `n` more bytes.
    mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let grown = max(capacity * 2, count + n)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.update(from: base, count: count)
        if owned { base.deallocate() }
        base = new
        capacity = grown
        owned = true
    }

    @inline(__always) mutating func append(_ b: UInt8) {
        if count == capacity { reserve(1) }
        base[count] = b
        count += 1
    }

    /// Appends `b`, as `%XX` when `set` holds it.
    @inline(__always) mutating func append(_ b: UInt8, encodedBy set: PercentEncodeSet) {
        guard set.contains(b) else { append(b); return }
        if count + 3 > capacity { reserve(3) }
        base[count] = 0x25
        base[count + 1] = PercentEncodeSet.hexDigit(b >> 4)
        base[count + 2] = PercentEncodeSet.hexDigit(b & 15)
        count += 3
    }

    /// Room for `n` more bytes, so that the next `n` bytes may be written by `appendReserved`.
    /// The parser reserves what a part of the input can become at most (three bytes a byte).
    @inline(__always) mutating func reserveAhead(_ n: Int) {
        if count + n > capacity { reserve(n) }
    }

    /// Appends `b` where `reserveAhead` made room (no compare per byte in the parser's loops).
    @inline(__always) mutating func appendReserved(_ b: UInt8) {
        assert(count < capacity, "ByteWriter.appendReserved past the room reserved")
        base[count] = b
        count += 1
    }

    /// `append(_:encodedBy:)` where `reserveAhead` made room for three bytes.
    @inline(__always) mutating func appendReserved(_ b: UInt8, encodedBy set: PercentEncodeSet) {
        assert(count + 3 <= capacity, "ByteWriter.appendReserved past the room reserved")
        if !set.contains(b) { base[count] = b; count += 1; return }
        base[count] = 0x25
        base[count + 1] = PercentEncodeSet.hexDigit(b >> 4)
        base[count + 2] = PercentEncodeSet.hexDigit(b & 15)
        count += 3
    }

    mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        reserve(bytes.count)
        for b in bytes { base[count] = b; count += 1 }
    }
}
