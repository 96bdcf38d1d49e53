#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls the core makes besides files and clocks, in one place so that every other
/// file of PekitCore is plain Swift (`PortableCoreTests` keeps it so). Each is POSIX, the same on
/// glibc, musl and Darwin; only the module's name differs.
package enum CLibrary {
    /// memchr: vectorised by the C library, where a byte loop over a slice costs far more.
    @inline(__always)
    static func find(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
        memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
    }

    /// memcmp == 0.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// strlen.
    static func length(_ text: UnsafePointer<CChar>) -> Int { strlen(text) }

    /// One variable of this process's environment (getenv: not a dictionary of all of it).
    package static func environment(_ name: String) -> String? {
        getenv(name).map { cText($0) }
    }

    /// This process's whole environment, read from `environ` (Foundation's `ProcessInfo` costs
    /// a start-up its own initialisation). A `NAME=VALUE` without `=` is left out; a name given
    /// twice keeps its first value, as getenv finds it.
    package static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = cText(pointer)
            if let equals = text.utf8.firstIndex(of: 0x3D) {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// C's `%.{precision}{conversion}` of `x` by the C library (its decimal rounding is exact).
    static func format(_ x: Double, precision: Int, conversion: Character) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = withVaList([x]) { vsnprintf(&buffer, buffer.count, "%.\(precision)\(conversion)", $0) }
        guard count > 0 && Int(count) < buffer.count else { return nil }
        return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The 16 bytes of an IPv6 address in text (inet_pton), or nil.
    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// read(2) and write(2), whose module-qualified names differ by platform.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }
}

/// A value per thread (a pthread key): the memory budget of the work running on this thread.
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // The key is written once, when the value is made, and read after.
    private var key = pthread_key_t()

    init() { pthread_key_create(&key, nil) }

    /// This thread's value (not retained: whoever sets it keeps it alive while it is set).
    var value: Value? {
        get { pthread_getspecific(key).map { Unmanaged<Value>.fromOpaque($0).takeUnretainedValue() } }
        set { pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() }) }
    }
}
