/// Exponential pauses between attempts at something that failed (a connect, a query, a stream, a mail):
/// the step starts at `initial` and doubles after each failure up to `ceiling`; each pause is the step
/// times a random factor from `jitter`, so peers that failed together do not retry in step. The one copy
/// that PostgreSQL's reconnects, the RPC client's retries and reconnects, the event streams and mail's
/// retries share.
public struct Backoff: Sendable, Equatable {
    public var initial: Duration
    public var ceiling: Duration
    /// The factor each step is multiplied by, drawn afresh for every pause; `1...1` for exact pauses.
    public var jitter: ClosedRange<Double>
    /// Failures since the last `reset()`, for callers that keep the count here (`next()`).
    public private(set) var failures = 0

    public init(initial: Duration, ceiling: Duration, jitter: ClosedRange<Double> = 0.5...1.0) {
        self.initial = initial
        self.ceiling = ceiling
        self.jitter = jitter
    }

    /// The pause after `failures` failures in a row (1 for the first): the step, jittered.
    public func delay(afterFailures failures: Int) -> Duration {
        step(afterFailures: failures) * Double.random(in: jitter)
    }

    /// The step after `failures` failures in a row: `initial`, doubled per further failure, capped.
    public func step(afterFailures failures: Int) -> Duration {
        var step = initial
        for _ in 1..<max(1, failures) where step < ceiling { step *= 2 }
        return min(step, ceiling)
    }

    /// Counts one more failure and returns the pause before the next attempt.
    public mutating func next() -> Duration {
        failures += 1
        return delay(afterFailures: failures)
    }

    /// Back to the shortest pause, after a success.
    public mutating func reset() { failures = 0 }
}
