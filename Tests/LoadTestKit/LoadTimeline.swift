/// The open loop's calls second by second, each counted in the second it was due (from the load's start):
/// how many were due and answered, shed (refused for load) or failed otherwise, and the latencies of those
/// answered. A run's totals hide when things went wrong; this shows a surge, the stack's answer to it and how
/// soon after it the latencies were back (`recovery`).
public struct LoadTimeline: Sendable, Equatable {
    public struct Second: Sendable, Equatable {
        public var answered = 0
        public var shed = 0
        public var failed = 0
        /// Of the calls answered, timed from their due time.
        public var latencies = LatencyHistogram()

        public init() {}

        public var calls: Int { answered + shed + failed }

        /// Whether this second was served as the run's budget asks: the p99 of its answered calls within
        /// `budgetMs`, and no more than `maxFailureRatio` of its calls shed or failed (the knee's rule).
        public func isWithin(budgetMs: Double, maxFailureRatio: Double) -> Bool {
            latencies.percentileMilliseconds(0.99) <= budgetMs
                && Double(shed + failed) <= maxFailureRatio * Double(calls)
        }
    }

    public enum Outcome: Sendable {
        case answered(latency: Duration)
        case shed
        case failed
    }

    public private(set) var seconds: [Second] = []

    public init() {}

    /// Counts a call due `due` after the load's start (a call due before it is not the open loop's).
    public mutating func record(due: Duration, _ outcome: Outcome) {
        guard due >= .zero else { return }
        let second = Int(due.components.seconds)
        if second >= seconds.count {
            seconds += Array(repeating: Second(), count: second + 1 - seconds.count)
        }
        switch outcome {
        case .answered(let latency):
            seconds[second].answered += 1
            seconds[second].latencies.record(latency)
        case .shed: seconds[second].shed += 1
        case .failed: seconds[second].failed += 1
        }
    }

    /// The calls due in `range` of seconds, taken together.
    public func total(_ range: Range<Int>) -> Second {
        seconds[range.clamped(to: seconds.indices)].reduce(into: Second()) { total, second in
            total.answered += second.answered
            total.shed += second.shed
            total.failed += second.failed
            total.latencies.merge(second.latencies)
        }
    }

    /// How many seconds after `second` (a surge's end) the run was back within its budget: the first second
    /// that begins `settle` seconds in a row within it, counted from `second` (0: the first second after the
    /// surge already did). A blip later on is the steady state's business (`Second.isWithin`, counted per part
    /// of the run by `RunReport.Surge`), not the surge's. Nil when no such run of seconds came.
    public func recovery(after second: Int, budgetMs: Double, maxFailureRatio: Double, settle: Int = 5)
        -> Int?
    {
        var inARow = 0
        for index in seconds.indices where index >= second {
            guard seconds[index].isWithin(budgetMs: budgetMs, maxFailureRatio: maxFailureRatio) else {
                inARow = 0
                continue
            }
            inARow += 1
            if inARow == settle { return index + 1 - settle - second }
        }
        return nil
    }

    /// How many of the seconds in `range` were not within the budget.
    public func secondsOverBudget(_ range: Range<Int>, budgetMs: Double, maxFailureRatio: Double) -> Int {
        seconds[range.clamped(to: seconds.indices)].count {
            !$0.isWithin(budgetMs: budgetMs, maxFailureRatio: maxFailureRatio)
        }
    }
}
