import PekitCore

/// HdrHistogram's V2 encodings, the ones its log files carry (`Interval_Compressed_Histogram`):
/// what HdrHistogram's own tools (HistogramLogProcessor, the plotter, the `hdrhistogram` PyPI
/// package) read and merge.
extension LatencyHistogram {
    /// The V2 encoding (HdrHistogram's `encodeIntoByteBuffer`): cookie 0x1c849313, the payload's
    /// length, normalizing offset 0, the significant digits, the lowest and highest values, the
    /// integer-to-double ratio 1.0 (all big-endian), then the counts up to the largest recorded
    /// value as ZigZag LEB128 words, a run of zeros written as its negated length (a single zero
    /// too, as HdrHistogram_c and the `hdrhistogram` package write it; Java writes that one as 0,
    /// and every decoder reads both).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(40 + nonZeroCounts.count * 3)
        Self.put32(&out, 0x1c84_9313)
        Self.put32(&out, 0)  // the payload's length, set below
        Self.put32(&out, 0)
        Self.put32(&out, UInt32(digits))
        Self.put64(&out, UInt64(lowest))
        Self.put64(&out, UInt64(highest))
        Self.put64(&out, (1.0).bitPattern)
        let payloadStart = out.count
        let limit = count == 0 ? 0 : index(of: maxRecorded) + 1
        var i = 0
        while i < limit {
            let n = countAt(i)
            i += 1
            if n == 0 {
                var zeros: Int64 = 1
                while i < limit && countAt(i) == 0 { zeros += 1; i += 1 }
                Self.putZigZag(&out, -zeros)
            } else {
                Self.putZigZag(&out, n)
            }
        }
        let length = UInt32(out.count - payloadStart)
        for k in 0..<4 { out[4 + k] = UInt8(truncatingIfNeeded: length >> (24 - 8 * k)) }
        return out
    }

    /// The compressed V2 encoding (`encodeIntoCompressedByteBuffer`): cookie 0x1c849314, the
    /// zlib stream's length, then `encoded()` as a zlib stream. The stream's deflate blocks are
    /// stored, not compressed: any inflater reads them (no compression library is loaded for
    /// this), at the cost of a larger line for a histogram of many distinct values.
    public func compressedEncoding() -> [UInt8] {
        let plain = encoded()
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let size = Swift.min(65_535, plain.count - offset)
            let final = offset + size == plain.count
            zlib.append(final ? 1 : 0)  // BFINAL, BTYPE 00: stored
            let length = UInt16(size), complement = ~UInt16(size)
            zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(complement & 0xFF), UInt8(complement >> 8)]
            zlib += plain[offset..<offset + size]
            offset += size
        } while offset < plain.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in plain {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        var out: [UInt8] = []
        Self.put32(&out, 0x1c84_9314)
        Self.put32(&out, UInt32(zlib.count))
        out += zlib
        Self.put32(&out, b << 16 | a)
        // The Adler-32 checksum ends the zlib stream: its length covers it.
        let length = UInt32(zlib.count + 4)
        for k in 0..<4 { out[4 + k] = UInt8(truncatingIfNeeded: length >> (24 - 8 * k)) }
        return out
    }

    private static func put32(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    private static func put64(_ out: inout [UInt8], _ v: UInt64) {
        put32(&out, UInt32(v >> 32))
        put32(&out, UInt32(truncatingIfNeeded: v))
    }

    /// HdrHistogram's ZigZagEncoding.putLong: ZigZag, then 7 bits a byte, least significant
    /// first, at most nine bytes (the ninth carries 8 bits).
    private static func putZigZag(_ out: inout [UInt8], _ value: Int64) {
        var v = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if v >> 7 == 0 {
                out.append(UInt8(v))
                return
            }
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(truncatingIfNeeded: v))
    }
}
