public import Foundation

/// Finding the knee: open-loop runs at rising rates until one passes the budget, the last rate within it being
/// the knee. A step passes the budget when an RPC with at least `minCalls` calls has a p99 above `p99Ms`, or
/// more than `maxFailureRatio` of all calls failed (a failed call has no latency, so a stack that answers
/// DEADLINE_EXCEEDED would otherwise look fast). A step in which the tool itself could not keep its schedule
/// (more than `maxFailureRatio` of the due calls late, expired or unsent) measured the tool, not the stack:
/// the search stops there and says so rather than call it the stack's knee.
public struct KneeSearch: Sendable {
    public struct Budget: Codable, Sendable, Equatable {
        public let p99Ms: Double
        public let minCalls: Int
        public let maxFailureRatio: Double

        /// At most 1% of the calls may fail: the knee's rule, and a surge's second's (`RunReport.Surge`).
        public static let defaultMaxFailureRatio = 0.01

        public init(p99Ms: Double, minCalls: Int = 100, maxFailureRatio: Double = defaultMaxFailureRatio) {
            self.p99Ms = p99Ms
            self.minCalls = minCalls
            self.maxFailureRatio = maxFailureRatio
        }

        enum CodingKeys: String, CodingKey {
            case p99Ms = "p99_ms", minCalls = "min_calls", maxFailureRatio = "max_failure_ratio"
        }
    }

    /// One rate's run and what it says.
    public struct Step: Codable, Sendable, Equatable {
        public let rate: Double
        public let withinBudget: Bool
        public let toolBound: Bool
        /// Each thing past the budget, said as a line: `<rpc> p99 812.0 ms > 500 ms`.
        public let over: [String]
        public let report: RunReport

        enum CodingKeys: String, CodingKey {
            case rate, over, report
            case withinBudget = "within_budget", toolBound = "tool_bound"
        }
    }

    /// The share of the budget the tool's own send lag (p99) may take before a step measures the tool.
    public static let lagShareOfBudget = 0.1

    public let budget: Budget
    public private(set) var steps: [Step] = []

    public init(budget: Budget) {
        self.budget = budget
    }

    /// The rates to try, `from` up to `to` by `step`.
    public static func rates(from: Double, step: Double, to: Double) -> [Double] {
        guard from > 0, step > 0, to >= from else { return [] }
        return Array(stride(from: from, through: to + step / 1e6, by: step))
    }

    /// Adds the run at `rate`; true when the search should go on to the next rate.
    public mutating func add(_ report: RunReport, rate: Double) -> Bool {
        var over: [String] = []
        for (name, rpc) in report.rpcs.sorted(by: { $0.key < $1.key })
        where rpc.count >= budget.minCalls && rpc.p99Ms > budget.p99Ms {
            over.append("\(name) p99 \(String(format: "%.1f ms > %.0f ms", rpc.p99Ms, budget.p99Ms))")
        }
        let calls = report.rpcs.values.reduce(0) { $0 + $1.count }
        let failed = report.rpcs.values.reduce(0) { $0 + $1.failed }
        if calls > 0, Double(failed) / Double(calls) > budget.maxFailureRatio {
            over.append("\(failed) of \(calls) calls failed")
        }
        let generator = report.generator
        let due = generator.sent + generator.expired + generator.unsent
        let notSent = generator.expired + generator.unsent
        let toolBound =
            (due > 0 && Double(notSent) / Double(due) > budget.maxFailureRatio)
            || generator.lagP99Ms > budget.p99Ms * Self.lagShareOfBudget
        if toolBound {
            over.append(
                "the tool did not keep its schedule: \(notSent) of \(due) due calls not sent, its send lag p99 "
                    + String(format: "%.1f ms", generator.lagP99Ms))
        }
        steps.append(
            Step(rate: rate, withinBudget: over.isEmpty, toolBound: toolBound, over: over, report: report))
        return over.isEmpty
    }

    /// The highest rate whose run and every run below it kept the budget; nil when the first did not.
    public var knee: Double? { steps.prefix { $0.withinBudget }.last?.rate }

    /// `{"budget", "steps": [{"rate", "within_budget", "tool_bound", "over", "report"}], "knee_rate"}`.
    public func json() throws -> Data {
        struct Document: Encodable {
            let budget: Budget
            let steps: [Step]
            let kneeRate: Double?

            enum CodingKeys: String, CodingKey {
                case budget, steps
                case kneeRate = "knee_rate"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(budget, forKey: .budget)
                try container.encode(steps, forKey: .steps)
                try container.encode(kneeRate, forKey: .kneeRate)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(Document(budget: budget, steps: steps, kneeRate: knee))
    }
}
