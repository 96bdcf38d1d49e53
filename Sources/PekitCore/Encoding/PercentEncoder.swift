/// Percent-encodes one URL component (RFC 3986 §2.1) byte by byte.
///
/// Input is taken as bytes: a Swift `String` as its UTF-8 form (so no character is ever split
/// between escapes), a byte buffer exactly as it is (so invalid UTF-8 from Lua still encodes).
/// A byte in `allowed` is copied; any other becomes `%XX`. Output is always ASCII.
///
/// Cost: one pass over the input by a kernel chosen for the CPU at first use (AVX-512 VBMI2,
/// SSSE3 or a scalar table; `CPercentKernels`), into room for the worst case that is given back
/// when a large output leaves most of it unused.
public struct PercentEncoder: Sendable, Equatable {
    /// How a space (0x20) is written when it is not in the allowed set.
    public enum Space: String, Sendable, Equatable, CaseIterable {
        /// `%20`: RFC 3986, Foundation, AFNetworking.
        case percent
        /// `+`: HTML forms (application/x-www-form-urlencoded). A literal `+` is then always
        /// escaped as `%2B`, even when the allowed set has it, so the output decodes unambiguously.
        case plus

        /// Every spelling accepted, on the command line and in plugins alike.
        public static let names = ["%20", "percent", "+", "plus"]

        /// `%20` or `percent`, `+` or `plus`.
        public init?(name: String) {
            switch name {
            case "%20", "percent": self = .percent
            case "+", "plus": self = .plus
            default: return nil
            }
        }
    }

    /// The case of the hex digits in `%XX`.
    public enum HexCase: String, Sendable, Equatable {
        /// `%2F`, as RFC 3986 §2.1 recommends.
        case upper
        /// `%2f`.
        case lower
    }

    /// The bytes copied as they are.
    public var allowed: AllowedSet { didSet { rebuildTable() } }
    /// How a space is written.
    public var space: Space { didSet { rebuildTable() } }
    /// The case of hex digits.
    public var hexCase: HexCase { didSet { rebuildTable() } }
    /// When true, a `%` followed by two hex digits is kept as an escape that is already there,
    /// so a partly escaped string is completed without double-encoding (`a%20b c` → `a%20b%20c`).
    public var keepsValidEscapes: Bool { didSet { rebuildTable() } }

    // What the kernels (CPercentKernels) do with each byte, built when a field changes and
    // shared by copies of the encoder.
    var rule = EncodeRule()

    /// Creates an encoder.
    /// - Parameters:
    ///   - allowed: bytes copied as they are (default RFC 3986 unreserved).
    ///   - space: how a space that is not allowed is written (default `%20`).
    ///   - hexCase: upper (default) or lower case hex digits.
    ///   - keepsValidEscapes: keep existing `%XX` escapes instead of encoding their `%`.
    public init(allowed: AllowedSet = .unreserved, space: Space = .percent, hexCase: HexCase = .upper,
                keepsValidEscapes: Bool = false) {
        self.allowed = allowed
        self.space = space
        self.hexCase = hexCase
        self.keepsValidEscapes = keepsValidEscapes
        rebuildTable()
    }

    /// RFC 3986: unreserved bytes only, space as `%20`.
    public static let rfc3986 = PercentEncoder()
    /// AFNetworking's `AFPercentEscapedStringFromString`.
    public static let afnetworking = PercentEncoder(allowed: .afnetworking)
    /// WHATWG application/x-www-form-urlencoded: `*-._` and alphanumerics, space as `+`.
    public static let form = PercentEncoder(allowed: .form, space: .plus)

    public static func == (lhs: PercentEncoder, rhs: PercentEncoder) -> Bool {
        lhs.allowed == rhs.allowed && lhs.space == rhs.space && lhs.hexCase == rhs.hexCase
            && lhs.keepsValidEscapes == rhs.keepsValidEscapes
    }

    private mutating func rebuildTable() {
        var copied = allowed
        // A literal '+' would read back as a space, so forms always escape it.
        if space == .plus { copied.remove(0x2B) }
        rule = EncodeRule(copy: copied, spacePlus: space == .plus && !allowed.contains(0x20),
                          upper: hexCase == .upper, keepsPercent: keepsValidEscapes && !allowed.contains(0x25))
    }

    /// Encodes the UTF-8 form of `string`.
    public func encode(_ string: String) -> String {
        var utf8 = string
        return utf8.withUTF8 { input in
            guard input.count > 0 else { return string }
            return String(unsafeUninitializedCapacity: capacity(for: input)) { output in
                fill(output.baseAddress!, from: input)
            }
        }
    }

    /// Encodes bytes exactly as given.
    ///
    /// Short input is written into room for the worst case (every byte escaped). Long input
    /// whose first 4 KB mostly escape is too, and moved into an array of its own size if most of
    /// the room went unused after all; other long input is measured first by the count kernel (a
    /// popcount of each block's escape mask, several times the encoder's speed), so its array is
    /// made at its own size and nothing is copied.
    public func encode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard input.count > 0 else { return [] }
        let room = Self.maximumEncodedCount(input.count)
        let large = room > Self.countedFrom
        let counted = large && !mostlyEscaped(UnsafeBufferPointer(rebasing: input.prefix(1 << 12)))
        var written = 0
        let encoded = [UInt8](unsafeUninitializedCapacity: counted ? capacity(for: input) : room) { output, initialized in
            written = fill(output.baseAddress!, from: input)
            initialized = written
        }
        guard large && !counted && written < room / 2 else { return encoded }
        return encoded.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: written) { output, initialized in
                _ = output.initialize(from: source)
                initialized = written
            }
        }
    }

    // Room for encoding `input` (not empty): the worst case when that is small, otherwise the
    // counted length and what a kernel may store past it, so a large result does not keep up to
    // three times its size.
    private func capacity(for input: UnsafeBufferPointer<UInt8>) -> Int {
        let room = Self.maximumEncodedCount(input.count)
        return room > Self.countedFrom ? encodedCount(input) + Self.countedSlack : room
    }

    // Whether `sample` encodes to at least 1.5 times its length, so that room for the worst case
    // is at most twice what the whole input is likely to need.
    private func mostlyEscaped(_ sample: UnsafeBufferPointer<UInt8>) -> Bool {
        encodedCount(sample) * 2 >= sample.count * 3
    }

    /// Encodes bytes into a buffer the caller owns, for callers that encode many short strings
    /// into one scratch buffer (no allocation at all).
    /// - Returns: the number of bytes written, or nil when `output` is too small: it needs
    ///   `encodedCount(input) + PercentEncoder.outputSlack` bytes.
    ///   With room for the worst case (`maximumEncodedCount(input.count)`) the length is not
    ///   measured first, so the input is read once.
    public func encode(bytes input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let base = output.baseAddress else { return input.isEmpty ? 0 : nil }
        if output.count >= Self.maximumEncodedCount(input.count) { return fill(base, from: input) }
        guard encodedCount(input) + Self.slack <= output.count else { return nil }
        // Less than the kernels' room: encoded into scratch room of their size, then copied.
        var written = 0
        let encoded = [UInt8](unsafeUninitializedCapacity: Self.maximumEncodedCount(input.count)) { scratch, initialized in
            written = fill(scratch.baseAddress!, from: input)
            initialized = written
        }
        encoded.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(start: base, count: written).initialize(from: $0) }
        return written
    }

    /// Room that always suffices for `encode(bytes:into:)`: every byte escaped, plus the slack.
    public static func maximumEncodedCount(_ inputCount: Int) -> Int { inputCount * 3 + slack }

    /// The room beyond the encoded length that `encode(bytes:into:)` needs (it stores four
    /// bytes at a time).
    public static let outputSlack = slack

    /// Encodes bytes exactly as given.
    public func encode<Bytes: Collection>(bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ encode(bytes: $0) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { encode(bytes: $0) }
    }

    /// The length of the encoded form of `input`, in bytes.
    ///
    /// Complexity: one pass, by the CPU's count kernel (a popcount of each block's escape mask);
    /// byte by byte when valid escapes are kept, as that is decided per `%`.
    public func encodedCount(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        guard let src = input.baseAddress else { return 0 }
        guard rule.keepsPercent else { return rule.count(src, input.count) }
        return rule.withTable { tbl in
            var count = 0
            for i in 0..<input.count {
                count &+= src[i] == 0x25 ? (Self.startsEscape(src, i, input.count) ? 1 : 3) : Int(tbl[Int(src[i])] >> 24)
            }
            return count
        }
    }

    // The kernels store whole words and registers past the last byte they mean to write: room
    // for three times the input needs 3 bytes more, room for the counted length 64 more
    // (CPercentKernels.h).
    private static let slack = 3, countedSlack = 64
    // Worst-case room above this is not made for nothing: the output is counted first.
    private static let countedFrom = 1 << 16

    /// Writes the encoded bytes and returns how many it wrote; `output` has room for
    /// `maximumEncodedCount(input.count)` bytes (what `encode(bytes:into:)` checks first: a
    /// writer that reserved that room calls this, with no check per string).
    func fill(_ output: UnsafeMutablePointer<UInt8>, from input: UnsafeBufferPointer<UInt8>) -> Int {
        guard let src = input.baseAddress else { return 0 }
        guard rule.keepsPercent else { return rule.encode(src, input.count, output) }
        // Keeping escapes is decided byte by byte (a '%' is kept when two digits follow).
        let out = UnsafeMutableRawPointer(output)
        let escapedPercent = escapeWord(0x25)
        return rule.withTable { tbl in
            let n = input.count
            var o = 0
            for i in 0..<n {
                let byte = src[i]
                let entry = byte != 0x25 ? tbl[Int(byte)] : Self.startsEscape(src, i, n) ? 1 << 24 | 0x25 : escapedPercent
                out.storeBytes(of: entry.littleEndian, toByteOffset: o, as: UInt32.self)
                o &+= Int(entry >> 24)
            }
            return o
        }
    }

    /// Line mode over a whole buffer: each line of `input` encoded on its own, the LF that ends
    /// it written as it is, and with `dropCR` a CR just before an LF left out (as a text-mode
    /// reader does). One pass and no per-line work: what `pekit encode` does with standard input.
    /// The caller keeps back, for the next buffer, a last CR and the start of an escape that the
    /// buffer cuts (`heldBack(_:dropCR:)` says how many bytes).
    /// - Parameter input: the buffer's bytes.
    /// - Parameter output: room for `maximumEncodedCount(input.count)` bytes.
    /// - Parameter dropCR: leave out a CR that comes just before an LF.
    /// - Returns: the number of bytes written.
    public func encodeLines(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, dropCR: Bool) -> Int {
        guard let src = input.baseAddress else { return 0 }
        let n = input.count
        var i = 0, o = 0
        while i < n {
            let lf = CLibrary.find(0x0A, in: src + i, count: n - i).map { $0.assumingMemoryBound(to: UInt8.self) - src } ?? n
            var end = lf
            if dropCR && lf < n && end > i && src[end - 1] == 0x0D { end -= 1 }
            o += fill(output + o, from: UnsafeBufferPointer(start: src + i, count: end - i))
            guard lf < n else { break }
            output[o] = 0x0A
            o += 1
            i = lf + 1
        }
        return o
    }

    /// How many bytes at the end of `buffer` `encodeLines` cannot decide on without the next
    /// buffer: a CR (an LF may follow), or a '%' and one digit (an escape may go on).
    public func heldBack(_ buffer: UnsafeBufferPointer<UInt8>, dropCR: Bool) -> Int {
        let n = buffer.count
        if n >= 1, dropCR, buffer[n - 1] == 0x0D { return 1 }
        guard keepsValidEscapes else { return 0 }
        if n >= 1, buffer[n - 1] == 0x25 { return 1 }
        if n >= 2, buffer[n - 2] == 0x25 { return 2 }
        return 0
    }

    // The table entry "%XX" for `byte`.
    private func escapeWord(_ byte: UInt8) -> UInt32 {
        let digits: StaticString = hexCase == .upper ? "0123456789ABCDEF" : "0123456789abcdef"
        let high = UInt32(digits.utf8Start[Int(byte >> 4)])
        let low = UInt32(digits.utf8Start[Int(byte & 0xF)])
        return 3 << 24 | low << 16 | high << 8 | 0x25
    }

    @inline(__always)
    private static func startsEscape(_ base: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        i &+ 2 < n && HexDigit.value(base[i &+ 1]) != nil && HexDigit.value(base[i &+ 2]) != nil
    }

}

/// Hex digit values for escapes.
enum HexDigit {
    /// Each byte's value as a hex digit (0–15), or 0xFF: one load where a loop over many
    /// escapes would branch on three ranges. Made once and never freed, as a C table is static.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = value(UInt8(b)) ?? 0xFF }
        return UnsafePointer(table)
    }()

    @inline(__always)
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x37
        case 0x61...0x66: return byte &- 0x57
        default: return nil
        }
    }
}
