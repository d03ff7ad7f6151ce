import Synchronization

/// A fixed row of counters that any thread adds to without a lock: what the hot path of a call touches
/// (a relaxed atomic add each), read whole only when metrics are scraped.
public final class AtomicCounters: @unchecked Sendable {
    public let count: Int
    // Unchecked Sendable: the storage is only ever reached through `Atomic`, allocated once, freed in deinit.
    private let storage: UnsafeMutablePointer<Atomic<Int>>

    public init(count: Int) {
        self.count = count
        storage = .allocate(capacity: count)
        for index in 0..<count { (storage + index).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    public func add(_ index: Int, _ amount: Int = 1) {
        storage[index].add(amount, ordering: .relaxed)
    }

    public func subtract(_ index: Int, _ amount: Int = 1) {
        storage[index].subtract(amount, ordering: .relaxed)
    }

    /// Sets a counter used as a gauge (a value that goes up and down, written by one thread).
    public func store(_ index: Int, _ value: Int) {
        storage[index].store(value, ordering: .relaxed)
    }

    public func load(_ index: Int) -> Int {
        storage[index].load(ordering: .relaxed)
    }
}

/// A latency histogram in Prometheus' shape: fixed upper bounds, one counter per bucket and the sum.
/// Recording is a short scan of the bounds and two atomic adds.
public final class LatencyHistogram: Sendable {
    /// Upper bounds in seconds: 0.5 ms to 10 s, for calls that are mostly a millisecond or two and
    /// sometimes wait on PostgreSQL, a peer or a deadline.
    public static let defaultBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    public let bounds: [Double]
    private let boundNanos: [UInt64]
    /// One counter per bound, then +Inf, then the sum in nanoseconds.
    private let cells: AtomicCounters

    public init(bounds: [Double] = LatencyHistogram.defaultBounds) {
        self.bounds = bounds
        boundNanos = bounds.map { UInt64($0 * 1e9) }
        cells = AtomicCounters(count: bounds.count + 2)
    }

    public func record(nanoseconds: UInt64) {
        var bucket = 0
        while bucket < boundNanos.count && nanoseconds > boundNanos[bucket] { bucket += 1 }
        cells.add(bucket)
        cells.add(boundNanos.count + 1, Int(truncatingIfNeeded: nanoseconds))
    }

    /// Cumulative counts per bound (the last is +Inf, the total) and the sum in seconds.
    public func snapshot() -> (cumulative: [Int], sumSeconds: Double) {
        var running = 0
        let cumulative = (0...boundNanos.count).map { index in
            running += cells.load(index)
            return running
        }
        return (cumulative, Double(cells.load(boundNanos.count + 1)) / 1e9)
    }
}
