extension RunReport {
    /// One second of the open loop (`LoadTimeline`): the calls due in it, by outcome, and the percentiles of
    /// those answered, timed from their due time.
    public struct Second: Codable, Sendable, Equatable {
        public let second: Int
        public let calls: Int
        public let answered: Int
        public let shed: Int
        public let failed: Int
        public let p50Ms: Double
        public let p99Ms: Double

        init(_ second: Int, _ tally: LoadTimeline.Second) {
            self.second = second
            calls = tally.calls
            answered = tally.answered
            shed = tally.shed
            failed = tally.failed
            p50Ms = tally.latencies.percentileMilliseconds(0.5)
            p99Ms = tally.latencies.percentileMilliseconds(0.99)
        }

        enum CodingKeys: String, CodingKey {
            case second, calls, answered, shed, failed
            case p50Ms = "p50_ms", p99Ms = "p99_ms"
        }
    }

    /// A run with `--surge`: the surge's rate and span, how each part of the run was served, and how many
    /// seconds after the surge the run was back within `budget_ms` (`recovered_after_s`: the first of
    /// `settle_s` seconds in a row within it; null when none came), a second being within it when its answered
    /// calls' p99 is and no more than `max_failure_ratio` of its calls were shed or failed. Each part counts its
    /// seconds over budget, so blips after the recovery compare with those before the surge.
    public struct Surge: Codable, Sendable, Equatable {
        /// A part of the run: its seconds' calls together, answered per second, the p99 of those answered, and
        /// how many of its seconds were over budget.
        public struct Part: Codable, Sendable, Equatable {
            public let seconds: Int
            public let answeredPerS: Double
            public let shed: Int
            public let failed: Int
            public let p99Ms: Double
            public let secondsOverBudget: Int

            init(_ range: Range<Int>, of timeline: LoadTimeline, budgetMs: Double, maxFailureRatio: Double) {
                let tally = timeline.total(range)
                seconds = range.count
                answeredPerS = seconds > 0 ? Double(tally.answered) / Double(seconds) : 0
                shed = tally.shed
                failed = tally.failed
                p99Ms = tally.latencies.percentileMilliseconds(0.99)
                secondsOverBudget = timeline.secondsOverBudget(
                    range, budgetMs: budgetMs, maxFailureRatio: maxFailureRatio)
            }

            enum CodingKeys: String, CodingKey {
                case seconds, shed, failed
                case answeredPerS = "answered_per_s", p99Ms = "p99_ms", secondsOverBudget =
                    "seconds_over_budget"
            }
        }

        /// Seconds in a row within budget that make a recovery.
        public static let settle = 5

        public let rate: Double
        public let fromS: Double
        public let lengthS: Double
        public let budgetMs: Double
        public let maxFailureRatio: Double
        public let settleS: Int
        public let before: Part
        public let during: Part
        public let after: Part
        public let recoveredAfterS: Int?

        /// `surge` judged on `timeline`, whose run lasted `seconds` of load.
        public init(
            _ surge: RateSurge, timeline: LoadTimeline, seconds: Int, budgetMs: Double,
            maxFailureRatio: Double = KneeSearch.Budget.defaultMaxFailureRatio
        ) {
            let starts = min(seconds, Int(surge.from.components.seconds))
            let ends = max(starts, min(seconds, Int(surge.until.asSeconds.rounded(.up))))
            rate = surge.rate
            fromS = surge.from.asSeconds
            lengthS = surge.length.asSeconds
            self.budgetMs = budgetMs
            self.maxFailureRatio = maxFailureRatio
            settleS = Self.settle
            let part = { Part($0, of: timeline, budgetMs: budgetMs, maxFailureRatio: maxFailureRatio) }
            before = part(0..<starts)
            during = part(starts..<ends)
            after = part(ends..<seconds)
            recoveredAfterS = timeline.recovery(
                after: ends, budgetMs: budgetMs, maxFailureRatio: maxFailureRatio, settle: Self.settle)
        }

        enum CodingKeys: String, CodingKey {
            case rate, before, during, after
            case fromS = "from_s", lengthS = "length_s", budgetMs = "budget_ms"
            case maxFailureRatio = "max_failure_ratio", recoveredAfterS = "recovered_after_s", settleS =
                "settle_s"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rate, forKey: .rate)
            try container.encode(fromS, forKey: .fromS)
            try container.encode(lengthS, forKey: .lengthS)
            try container.encode(budgetMs, forKey: .budgetMs)
            try container.encode(maxFailureRatio, forKey: .maxFailureRatio)
            try container.encode(settleS, forKey: .settleS)
            try container.encode(before, forKey: .before)
            try container.encode(during, forKey: .during)
            try container.encode(after, forKey: .after)
            // Explicitly null when the run ended before it recovered, so a script reads the key either way.
            try container.encode(recoveredAfterS, forKey: .recoveredAfterS)
        }
    }
}
