/// The decoder's fast path (issue 47): the kernels of `CPercentKernels` (AVX-512, SSSE3 or a
/// scalar word loop, chosen for the CPU) serve every decode but `%uXXXX`; in strict mode a bad
/// escape sends the input to the general loop, which says where. `PercentKernelTests` and the
/// `decoder` fuzz target hold every level to the general loop.
extension PercentDecoder {
    /// Whether `decode(bytes:)` takes the fast path.
    var takesFastPath: Bool { !decodesUnicodeEscapes }

    /// Decodes by the general loop alone: what the fast path is held to.
    package func decodeByGeneralPath(bytes input: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        try decode(bytes: input, fast: false)
    }

    /// Decodes by the kernel of `level` (lowered to what the CPU has), falling back to the
    /// general loop as `decode(bytes:)` does: what the tests compare.
    package func decode(bytes input: UnsafeBufferPointer<UInt8>, level: PercentKernelLevel) throws -> [UInt8] {
        try decode(bytes: input, fast: takesFastPath, level: level)
    }
}
