/// Copies of a few bytes without a call into the C library.
///
/// A query writes a separator, an `=` and a key of a few bytes for every pair: through `memmove`
/// each was a call with its size checks, and those calls were a tenth of encoding a query.
enum ByteCopy {
    /// Copies `count` bytes from `source` to `destination` (not overlapping).
    @inline(__always)
    static func copy(from source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        // Up to 64 bytes as two loads and two stores that may overlap in the middle, as C
        // libraries copy short blocks.
        switch count {
        case 33...64:
            let head = from.loadUnaligned(as: SIMD32<UInt8>.self), tail = from.loadUnaligned(fromByteOffset: count - 32, as: SIMD32<UInt8>.self)
            to.storeBytes(of: head, as: SIMD32<UInt8>.self)
            to.storeBytes(of: tail, toByteOffset: count - 32, as: SIMD32<UInt8>.self)
        case 17...32:
            let head = from.loadUnaligned(as: SIMD16<UInt8>.self), tail = from.loadUnaligned(fromByteOffset: count - 16, as: SIMD16<UInt8>.self)
            to.storeBytes(of: head, as: SIMD16<UInt8>.self)
            to.storeBytes(of: tail, toByteOffset: count - 16, as: SIMD16<UInt8>.self)
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            // First, middle and last: the three bytes of 3, or two of them twice.
            let first = source[0], middle = source[count >> 1], last = source[count - 1]
            destination[0] = first
            destination[count >> 1] = middle
            destination[count - 1] = last
        case 0:
            break
        default:
            destination.update(from: source, count: count)
        }
    }
}
