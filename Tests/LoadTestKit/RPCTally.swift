/// One RPC's outcomes over a run (or a part of one, to be merged): the latencies of calls that succeeded or
/// were refused as the scenario expects, failures by gRPC status name, expected refusals apart.
public struct RPCTally: Sendable, Equatable {
    public var latencies = LatencyHistogram()
    public var failuresByStatus: [String: Int] = [:]
    public var expectedRefusals = 0

    public init() {}

    public var failed: Int { failuresByStatus.values.reduce(0, +) }
    /// Every call, whatever its outcome.
    public var count: Int { Int(latencies.count) + failed }

    public mutating func merge(_ other: RPCTally) {
        latencies.merge(other.latencies)
        failuresByStatus.merge(other.failuresByStatus, uniquingKeysWith: +)
        expectedRefusals += other.expectedRefusals
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
