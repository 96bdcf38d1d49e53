#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte blocks from the C library's heap, for buffers that grow by realloc: a large block is
/// moved by remapping its pages rather than copied into fresh ones (the query writer's use).
/// Out of memory falls back to Swift's allocation, which reports it as every other one does.
enum CHeap {
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        malloc(capacity)?.assumingMemoryBound(to: UInt8.self) ?? .allocate(capacity: capacity)
    }

    /// `block` (holding `count` bytes) made `capacity` bytes long, perhaps moved.
    static func reallocate(_ block: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if let moved = realloc(block, capacity) { return moved.assumingMemoryBound(to: UInt8.self) }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        moved.update(from: block, count: count)
        free(block)
        return moved
    }

    static func release(_ block: UnsafeMutablePointer<UInt8>) { free(block) }
}
