/// Latencies in microseconds, log-linear: exact below 128 µs, then 64 buckets per power of two, so a
/// percentile is within 1.6% of the true value whatever the range (HdrHistogram's layout at two significant
/// digits, written here rather than pulled in as a package: ~100 lines against a dependency and its build
/// minutes). A percentile reports its bucket's highest value, never less than the truth, capped at the
/// largest value recorded, which is kept exactly.
public struct LatencyHistogram: Sendable, Equatable {
    static let exactBelow: UInt64 = 128
    static let subBuckets: UInt64 = 64

    private(set) var counts: [UInt64] = []
    public private(set) var count: UInt64 = 0
    public private(set) var maxMicroseconds: UInt64 = 0

    public init() {}

    public mutating func record(microseconds value: UInt64) {
        let index = Self.bucket(of: value)
        if index >= counts.count { counts += Array(repeating: 0, count: index + 1 - counts.count) }
        counts[index] += 1
        count += 1
        maxMicroseconds = max(maxMicroseconds, value)
    }

    public mutating func record(_ latency: Duration) {
        let (seconds, attoseconds) = latency.components
        guard seconds >= 0, attoseconds >= 0 else { return record(microseconds: 0) }
        record(microseconds: UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000))
    }

    /// Adds `other`'s values, as if they had been recorded here.
    public mutating func merge(_ other: LatencyHistogram) {
        if other.counts.count > counts.count {
            counts += Array(repeating: 0, count: other.counts.count - counts.count)
        }
        for (index, value) in other.counts.enumerated() { counts[index] += value }
        count += other.count
        maxMicroseconds = max(maxMicroseconds, other.maxMicroseconds)
    }

    /// The value at or below which `fraction` (0...1) of the recorded values lie; 0 when empty.
    public func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = max(1, UInt64((fraction * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, value) in counts.enumerated() {
            seen += value
            if seen >= rank { return min(Self.highestValue(in: index), maxMicroseconds) }
        }
        return maxMicroseconds
    }

    public func percentileMilliseconds(_ fraction: Double) -> Double {
        Double(percentile(fraction)) / 1_000
    }

    public var maxMilliseconds: Double { Double(maxMicroseconds) / 1_000 }

    static func bucket(of value: UInt64) -> Int {
        guard value >= exactBelow else { return Int(value) }
        let magnitude = UInt64(63 - value.leadingZeroBitCount)
        let shift = magnitude - 6
        let sub = value >> shift
        return Int(exactBelow + (shift - 1) * subBuckets + (sub - subBuckets))
    }

    static func highestValue(in bucket: Int) -> UInt64 {
        let index = UInt64(bucket)
        guard index >= exactBelow else { return index }
        let shift = (index - exactBelow) / subBuckets + 1
        let sub = (index - exactBelow) % subBuckets + subBuckets
        return ((sub + 1) << shift) - 1
    }
}
