import CPercentKernels

/// An encoder's rule as the kernels read it (`CPercentKernels`): the copy set, the space rule,
/// the hex case and the scalar loop's table, built once per encoder setting and shared by
/// copies of the encoder (a 1 KB table is not copied with the struct).
final class EncodeRule: @unchecked Sendable {
    // Written only in init; read by any thread after.
    private let rule: UnsafeMutablePointer<pk_encode_rule>
    /// Whether a '%' is kept when two hex digits follow (the Swift loop decides those bytes).
    let keepsPercent: Bool

    init(copy: AllowedSet = AllowedSet(), spacePlus: Bool = false, upper: Bool = true, keepsPercent: Bool = false) {
        rule = .allocate(capacity: 1)
        rule.initialize(to: pk_encode_rule())
        rule.pointee.copy_low = copy.bitmap.low
        rule.pointee.copy_high = copy.bitmap.high
        rule.pointee.space_plus = spacePlus ? 1 : 0
        rule.pointee.upper = upper ? 1 : 0
        pk_encode_rule_init(rule)
        self.keepsPercent = keepsPercent
    }

    deinit { rule.deallocate() }

    /// Encodes `n` bytes at `src` into `dst` (room for `3n + 3`) with the CPU's best kernel.
    @inline(__always)
    func encode(_ src: UnsafePointer<UInt8>, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, level: PercentKernelLevel = .best) -> Int {
        pk_encode(level.raw, src, n, dst, rule)
    }

    /// The length `encode` writes for the same input, counted by the kernel of `level` (one
    /// popcount a block) without writing.
    @inline(__always)
    func count(_ src: UnsafePointer<UInt8>, _ n: Int, level: PercentKernelLevel = .best) -> Int {
        pk_encoded_count(level.raw, src, n, rule)
    }

    /// The scalar loop's table: per byte, the bytes written (low 24 bits) and their count (top 8).
    @inline(__always)
    func withTable<R>(_ body: (UnsafePointer<UInt32>) -> R) -> R {
        withUnsafeBytes(of: &rule.pointee.table) { body($0.baseAddress!.assumingMemoryBound(to: UInt32.self)) }
    }
}

/// The instruction sets a percent kernel may use; `best` is what this CPU runs. The tests and
/// the fuzz target run every level the CPU has against the others and the Swift general loop.
package enum PercentKernelLevel: Int, CaseIterable, Sendable {
    case scalar = 0, ssse3 = 1, avx512 = 2
    /// The highest level: lowered by the kernel to what the CPU has.
    package static let best = PercentKernelLevel.avx512

    /// The levels this CPU runs.
    package static var available: [PercentKernelLevel] {
        let top = Int(pk_best_level().rawValue)
        return allCases.filter { $0.rawValue <= top }
    }

    var raw: pk_level { pk_level(rawValue: UInt32(rawValue)) }
}

extension PercentEncoder {
    /// Encodes with the kernel of `level` (lowered to what the CPU has): what the tests compare.
    package func encode(bytes input: UnsafeBufferPointer<UInt8>, level: PercentKernelLevel) -> [UInt8] {
        guard input.count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: Self.maximumEncodedCount(input.count)) { output, initialized in
            initialized = encode(bytes: input, level: level, into: output.baseAddress!)
        }
    }

    /// The encoded length as the count kernel of `level` finds it: what the tests hold to the
    /// length each level writes.
    package func encodedCount(_ input: UnsafeBufferPointer<UInt8>, level: PercentKernelLevel) -> Int {
        guard let src = input.baseAddress else { return 0 }
        return rule.count(src, input.count, level: level)
    }

    /// Encodes with the kernel of `level` into `output` (room for `maximumEncodedCount`), for
    /// the benchmark's per-level rows; the count written.
    package func encode(bytes input: UnsafeBufferPointer<UInt8>, level: PercentKernelLevel, into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard let src = input.baseAddress else { return 0 }
        return rule.encode(src, input.count, output, level: level)
    }
}

extension PercentDecoder {
    /// Decodes with the kernel of `level` into `output` (room for `input.count`), for the
    /// benchmark's per-level rows: the count written, or nil where strict mode would fail.
    package func decode(bytes input: UnsafeBufferPointer<UInt8>, level: PercentKernelLevel, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let src = input.baseAddress else { return 0 }
        return runKernel(src, input.count, output, level: level)
    }

    /// Decodes `n` bytes at `src` into `dst` (room for `n`) by the kernel of `level`: the count
    /// written, or nil when strict mode meets a `%` that starts no escape.
    func runKernel(_ src: UnsafePointer<UInt8>, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, level: PercentKernelLevel = .best) -> Int? {
        let flags = Int32((plusAsSpace ? PK_DECODE_PLUS : 0) | (mode == .strict ? PK_DECODE_STRICT : 0))
        let written = pk_decode(level.raw, src, n, dst, flags)
        return written < 0 ? nil : written
    }
}
