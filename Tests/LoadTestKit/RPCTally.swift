/// One RPC's outcomes over a run (or a part of one, to be merged): the latencies of calls that succeeded or
/// were refused as the scenario expects, failures by gRPC status and reason, expected refusals apart.
public struct RPCTally: Sendable, Equatable {
    /// What a failed call ended with: its gRPC status name (`DEADLINE_EXCEEDED`) and its reason, the
    /// `ErrorInfo` reason the server sent, or `Failure.noReason`, or one of the tool's own (`Failure.stopped`).
    public struct Failure: Sendable, Hashable, Comparable {
        /// A failure that carried no `ErrorInfo` (a deadline, a dropped connection, an INTERNAL).
        public static let noReason = "none"
        /// The run's hard stop (its duration and the deadline past) cancelled the call.
        public static let stopped = "TOOL_STOPPED"

        public let status: String
        public let reason: String

        public init(status: String, reason: String = Self.noReason) {
            self.status = status
            self.reason = reason
        }

        public static func < (lhs: Failure, rhs: Failure) -> Bool {
            (lhs.status, lhs.reason) < (rhs.status, rhs.reason)
        }

        /// Whether the server shed the call: refused it for load (`UNAVAILABLE`, `RESOURCE_EXHAUSTED`) rather
        /// than failed it.
        public var isShed: Bool { status == "UNAVAILABLE" || status == "RESOURCE_EXHAUSTED" }
    }

    public var latencies = LatencyHistogram()
    public var failures: [Failure: Int] = [:]
    public var expectedRefusals = 0
    /// How long each shed call took to be refused, from when it was sent: a stack past its capacity must say
    /// no quickly (issue 27: within 10 ms), not after the call waited.
    public var shedLatencies = LatencyHistogram()

    public init() {}

    public var failed: Int { failures.values.reduce(0, +) }
    /// Every call, whatever its outcome.
    public var count: Int { Int(latencies.count) + failed }

    /// Failures by status name, reasons added together.
    public var failuresByStatus: [String: Int] {
        failures.reduce(into: [:]) { $0[$1.key.status, default: 0] += $1.value }
    }

    public mutating func merge(_ other: RPCTally) {
        latencies.merge(other.latencies)
        failures.merge(other.failures, uniquingKeysWith: +)
        expectedRefusals += other.expectedRefusals
        shedLatencies.merge(other.shedLatencies)
    }
}

/// Deliveries of writes to the streams that should carry them: the delay from the write's answer to the
/// stream's arrival, and the deliveries that never came.
public struct DeliveryTally: Sendable, Equatable {
    public var delays = LatencyHistogram()
    public var missed = 0

    public init() {}

    public mutating func merge(_ other: DeliveryTally) {
        delays.merge(other.delays)
        missed += other.missed
    }
}
