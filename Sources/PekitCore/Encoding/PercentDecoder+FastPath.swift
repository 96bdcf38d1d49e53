/// The decoder's fast path (issue 47): runs of plain bytes are found and copied eight at a time
/// (a word compared with `%`, and `+` for forms, by the SWAR zero-byte test), and an escape's
/// digits read from a 256-entry table instead of a range switch. It serves every decode but
/// `%uXXXX`; in strict mode a bad escape sends the input to the general loop, which says where.
/// `PercentDecoderFastPathTests` and the `decoder` fuzz target hold the two to the same bytes.
extension PercentDecoder {
    /// Each byte's value as a hex digit, 0xFF for one that is not a digit.
    static let hexTable: [UInt8] = (0..<256).map { HexDigit.value(UInt8($0)) ?? 0xFF }

    /// Whether `decode(bytes:)` takes the fast path.
    var takesFastPath: Bool { !decodesUnicodeEscapes }

    /// Decodes `n` bytes at `src` into `dst` (room for `n`): the count written, or nil when
    /// strict mode meets a `%` that starts no escape.
    func runFast(_ src: UnsafePointer<UInt8>, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) -> Int? {
        let plus = plusAsSpace, strict = mode == .strict
        return Self.hexTable.withUnsafeBufferPointer { hex -> Int? in
            let input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
            let percents: UInt64 = 0x2525_2525_2525_2525, plusses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            var i = 0, o = 0
            while i < n {
                // Whole words while no byte is special. The output is never ahead of the input,
                // so a word stored at `o` fits where one was read at `i`.
                while i &+ 8 <= n {
                    let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    var x = word ^ percents
                    var special = (x &- ones) & ~x & highs
                    if plus {
                        x = word ^ plusses
                        special |= (x &- ones) & ~x & highs
                    }
                    output.storeBytes(of: word.littleEndian, toByteOffset: o, as: UInt64.self)
                    if special != 0 {
                        // The lowest flagged byte is the first special one (higher flags may be
                        // borrows, and are not read).
                        let plain = special.trailingZeroBitCount >> 3
                        i &+= plain; o &+= plain
                        break
                    }
                    i &+= 8; o &+= 8
                }
                // Then byte by byte while the bytes are special: a run of escapes (`%E6%B1%89`)
                // goes back to whole words only at its end.
                while i < n {
                    let byte = src[i]
                    if byte == 0x25 {
                        if i &+ 2 < n {
                            let high = hex[Int(src[i &+ 1])], low = hex[Int(src[i &+ 2])]
                            if high | low < 16 {
                                dst[o] = high << 4 | low
                                o &+= 1; i &+= 3
                                continue
                            }
                        }
                        if strict { return nil }
                        dst[o] = 0x25
                    } else if byte == 0x2B && plus {
                        dst[o] = 0x20
                    } else {
                        break
                    }
                    o &+= 1; i &+= 1
                }
                // A plain byte near the end, where no word is left: copied here.
                if i < n && i &+ 8 > n {
                    dst[o] = src[i]
                    o &+= 1; i &+= 1
                }
            }
            return o
        }
    }

    /// Decodes by the general loop alone: what the fast path is held to.
    package func decodeByGeneralPath(bytes input: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        try decode(bytes: input, fast: false)
    }
}
