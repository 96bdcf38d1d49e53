/// A High Dynamic Range histogram of whole numbers (latencies in microseconds, say), as Gil
/// Tene's HdrHistogram keeps them: every value from `lowest` to `highest` recorded with
/// `digits` significant decimal digits, in a fixed array of counts (no sampling, no loss in the
/// tail), so that percentiles up to p99.999 and the maximum are what was measured within that
/// precision. The layout, the indexing and the percentile rule are HdrHistogram's own
/// (HdrHistogram_c and the `hdrhistogram` Python package compute the same values;
/// `LatencyHistogramTests` holds them to the latter).
///
/// Recording is O(1); a percentile, the mean and a merge walk the counts (about 23,000 of them
/// for 1 µs to an hour at 3 digits: 184 KB).
public struct LatencyHistogram: Sendable, Equatable {
    /// The lowest value told apart from 0 (rounded down to a power of two for the layout).
    public let lowest: Int64
    /// The highest value that can be recorded.
    public let highest: Int64
    /// Significant decimal digits kept, 1 to 5.
    public let digits: Int
    /// How many values were recorded.
    public private(set) var count: Int64 = 0
    private var counts: [Int64]
    private var minRecorded = Int64.max
    private(set) var maxRecorded: Int64 = 0
    private let unitMagnitude: Int, subBucketHalfCountMagnitude: Int
    private let subBucketHalfCount: Int64, subBucketMask: Int64
    /// The layout's buckets (powers of two of the range) and sub-buckets in each (its precision),
    /// as HdrHistogram's `.hgrm` footer states them.
    public let bucketCount: Int
    /// The sub-buckets in each bucket: twice the values told apart exactly at the low end.
    public let subBucketCount: Int64

    /// Why a histogram cannot be made, or a value not recorded.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `lowest` below 1, or `highest` below twice `lowest` (or too large to lay out).
        case badRange(lowest: Int64, highest: Int64)
        /// Significant digits outside 1 to 5.
        case badDigits(Int)
        /// A value below 0 or above `highest`.
        case outOfRange(value: Int64, highest: Int64)
        /// A merge of a histogram that holds values above this one's `highest`.
        case differentLayout

        public var description: String {
            switch self {
            case let .badRange(lowest, highest):
                return "a histogram needs 1 <= lowest and 2 × lowest <= highest (got lowest \(lowest), highest \(highest))"
            case let .badDigits(digits): return "a histogram keeps 1 to 5 significant digits (got \(digits))"
            case let .outOfRange(value, highest): return "\(value) is outside the histogram's range (0 to \(highest))"
            case .differentLayout: return "the other histogram records values this one cannot hold"
            }
        }
    }

    /// A histogram for values from `lowest` to `highest` at `digits` significant digits.
    /// - Throws: `Failure.badRange`, `Failure.badDigits`.
    public init(lowest: Int64 = 1, highest: Int64 = 3_600_000_000, digits: Int = 3) throws {
        guard lowest >= 1, highest >= 2 &* lowest, highest < Int64.max / 2 else { throw Failure.badRange(lowest: lowest, highest: highest) }
        guard (1...5).contains(digits) else { throw Failure.badDigits(digits) }
        self.lowest = lowest
        self.highest = highest
        self.digits = digits
        var largestSingleUnit: Int64 = 2
        for _ in 0..<digits { largestSingleUnit *= 10 }
        // ceil(log2(2 × 10^digits)), floor(log2(lowest)): the magnitudes HdrHistogram derives.
        let subBucketCountMagnitude = 64 - (largestSingleUnit - 1).leadingZeroBitCount
        subBucketHalfCountMagnitude = Swift.max(subBucketCountMagnitude, 1) - 1
        unitMagnitude = 63 - lowest.leadingZeroBitCount
        subBucketCount = 1 << (subBucketHalfCountMagnitude + 1)
        subBucketHalfCount = subBucketCount / 2
        subBucketMask = (subBucketCount - 1) << unitMagnitude
        var smallestUntrackable = subBucketCount << unitMagnitude
        var buckets = 1
        while smallestUntrackable <= highest {
            smallestUntrackable <<= 1
            buckets += 1
        }
        bucketCount = buckets
        counts = Array(repeating: 0, count: (buckets + 1) * Int(subBucketHalfCount))
    }

    // MARK: Recording

    /// Records `value` (`times` times).
    /// - Throws: `Failure.outOfRange` for a value below 0 or above `highest`; nothing is recorded then.
    public mutating func record(_ value: Int64, times: Int64 = 1) throws {
        guard value >= 0, value <= highest else { throw Failure.outOfRange(value: value, highest: highest) }
        counts[index(of: value)] += times
        count += times
        if value != 0 && value < minRecorded { minRecorded = value }
        if value > maxRecorded { maxRecorded = value }
    }

    /// Records `value` and, when it exceeds `expectedInterval`, the values a sender on that
    /// schedule would have seen while it waited (`value - interval`, `value - 2 × interval`, …
    /// down to the interval): HdrHistogram's correction for coordinated omission.
    /// - Throws: `Failure.outOfRange`, before anything is recorded.
    public mutating func recordCorrected(_ value: Int64, expectedInterval: Int64) throws {
        try record(value)
        guard expectedInterval > 0 else { return }
        var missing = value - expectedInterval
        while missing >= expectedInterval {
            try record(missing)
            missing -= expectedInterval
        }
    }

    /// Adds every value `other` recorded.
    /// - Throws: `Failure.differentLayout` when `other` holds a value above `highest` (nothing is added then).
    public mutating func merge(_ other: LatencyHistogram) throws {
        guard other.count > 0 else { return }
        guard other.maxRecorded <= highest else { throw Failure.differentLayout }
        if other.lowest == lowest && other.highest == highest && other.digits == digits {
            for i in counts.indices where other.counts[i] != 0 { counts[i] += other.counts[i] }
            count += other.count
            minRecorded = Swift.min(minRecorded, other.minRecorded)
            maxRecorded = Swift.max(maxRecorded, other.maxRecorded)
            return
        }
        for i in other.counts.indices where other.counts[i] != 0 {
            try record(other.value(atIndex: i), times: other.counts[i])
        }
    }

    /// Forgets every value.
    public mutating func reset() {
        for i in counts.indices { counts[i] = 0 }
        count = 0
        minRecorded = .max
        maxRecorded = 0
    }

    // MARK: Reading

    /// The value at `percentile` (0 to 100): the highest value equivalent to the one below which
    /// that share of the recorded values lies (the lowest equivalent for percentile 0); 0 when
    /// nothing was recorded.
    public func value(atPercentile percentile: Double) -> Int64 {
        let target = targetCount(percentile)
        var total: Int64 = 0
        for i in counts.indices {
            total += counts[i]
            if total >= target {
                let value = value(atIndex: i)
                return percentile > 0 ? highestEquivalent(value) : lowestEquivalent(value)
            }
        }
        return 0
    }

    /// The smallest recorded value (its lowest equivalent); 0 when 0 was recorded or nothing was.
    public var min: Int64 {
        if count == 0 || counts[0] > 0 { return 0 }
        return lowestEquivalent(minRecorded)
    }

    /// The largest recorded value (its highest equivalent); 0 when nothing was recorded.
    public var max: Int64 { maxRecorded == 0 ? 0 : highestEquivalent(maxRecorded) }

    /// The mean of the recorded values (each taken as the middle of its equivalent range).
    public var mean: Double {
        guard count > 0 else { return 0 }
        var total = 0.0
        for i in counts.indices where counts[i] != 0 { total += Double(counts[i]) * Double(medianEquivalent(value(atIndex: i))) }
        return total / Double(count)
    }

    /// The standard deviation of the recorded values (as `mean` takes them).
    public var standardDeviation: Double {
        guard count > 0 else { return 0 }
        let mean = self.mean
        var total = 0.0
        for i in counts.indices where counts[i] != 0 {
            let deviation = Double(medianEquivalent(value(atIndex: i))) - mean
            total += deviation * deviation * Double(counts[i])
        }
        return (total / Double(count)).squareRoot()
    }

    /// One row of the percentile distribution.
    public struct Step: Sendable, Equatable {
        /// The value reached (its highest equivalent).
        public var value: Int64
        /// The percentile level this row reports (0 to 100).
        public var percentile: Double
        /// How many values are at or below `value`.
        public var totalCount: Int64
    }

    /// The percentile distribution as HdrHistogram prints it (`outputPercentileDistribution`):
    /// levels that halve their distance to 100% every `ticksPerHalfDistance` rows, each row the
    /// first value whose cumulative share reaches the level, the last row at 100%.
    public func percentileDistribution(ticksPerHalfDistance: Int = 5) -> [Step] {
        guard count > 0 else { return [] }
        var steps: [Step] = []
        var level = 0.0, total: Int64 = 0
        let ticks = Double(Swift.max(ticksPerHalfDistance, 1))
        for i in counts.indices where counts[i] != 0 {
            total += counts[i]
            let value = highestEquivalent(value(atIndex: i))
            while 100.0 * Double(total) / Double(count) >= level {
                steps.append(Step(value: value, percentile: level, totalCount: total))
                // The last value: one row at the level reached, then the 100% row (as HdrHistogram's iterator ends).
                if total == count {
                    steps.append(Step(value: value, percentile: 100, totalCount: total))
                    return steps
                }
                // HdrHistogram's PercentileIterator: ticks per halving of the distance to 100%,
                // the halving's exponent truncated (`Double.exponent` is floor(log2)).
                let halfDistance = Double(1 << (Int((100.0 / (100.0 - level)).exponent) + 1))
                level += 100.0 / (ticks * halfDistance)
            }
        }
        return steps
    }

    // MARK: Layout (HdrHistogram's)

    private func bucketIndex(_ value: Int64) -> Int {
        // 64 - clz(value | mask) - unitMagnitude - (subBucketHalfCountMagnitude + 1)
        64 - (value | subBucketMask).leadingZeroBitCount - unitMagnitude - (subBucketHalfCountMagnitude + 1)
    }

    func index(of value: Int64) -> Int {
        let bucket = bucketIndex(value)
        let subBucket = value >> (bucket + unitMagnitude)
        return ((bucket + 1) << subBucketHalfCountMagnitude) + Int(subBucket - subBucketHalfCount)
    }

    func value(atIndex index: Int) -> Int64 {
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = Int64(index & Int(subBucketHalfCount - 1)) + subBucketHalfCount
        if bucket < 0 {
            subBucket -= subBucketHalfCount
            bucket = 0
        }
        return subBucket << (bucket + unitMagnitude)
    }

    private func rangeSize(_ value: Int64) -> Int64 {
        var bucket = bucketIndex(value)
        if value >> (bucket + unitMagnitude) >= subBucketCount { bucket += 1 }
        return 1 << (unitMagnitude + bucket)
    }

    /// The smallest value recorded in the same count as `value`.
    public func lowestEquivalent(_ value: Int64) -> Int64 {
        let bucket = bucketIndex(value)
        return (value >> (bucket + unitMagnitude)) << (bucket + unitMagnitude)
    }

    /// The largest value recorded in the same count as `value`.
    public func highestEquivalent(_ value: Int64) -> Int64 { lowestEquivalent(value) + rangeSize(value) - 1 }

    private func medianEquivalent(_ value: Int64) -> Int64 { lowestEquivalent(value) + (rangeSize(value) >> 1) }

    /// How many values lie at or below `percentile`, as HdrHistogram rounds it (at least 1).
    private func targetCount(_ percentile: Double) -> Int64 {
        let requested = Swift.min(percentile, 100)
        return Swift.max(Int64(requested * Double(count) / 100 + 0.5), 1)
    }

    /// The count at `index` of the layout.
    func countAt(_ index: Int) -> Int64 { counts[index] }

    /// The counts that are not zero, by their index (what a log entry encodes).
    var nonZeroCounts: [(index: Int, count: Int64)] {
        counts.indices.compactMap { counts[$0] == 0 ? nil : ($0, counts[$0]) }
    }

    /// The number of counts (what a log entry's layout implies).
    var countsLength: Int { counts.count }

    /// The bytes its counts take (fixed by the layout: about 184 KB for 1 µs to an hour at 3 digits).
    public var footprint: Int { counts.count * MemoryLayout<Int64>.stride }
}
