public import Foundation

/// The whole run as issue 17 fixes its shape, so that runs can be compared by a script:
/// `{"rpcs": {"<Service>/<Method>": {"count", "failed", "expected_refusals", "p50_ms", "p99_ms", "p999_ms",
/// "max_ms"}}, "realtime": {"deliveries", "missed", "p50_ms", "p99_ms", "max_ms"}, "users", "duration_s"}`; then,
/// beyond the keys, `realtime_streams` (the same per kind of stream: messages, profile activity) and
/// `cpu` (per server process the run could see: CPU seconds, calls, milliseconds a call, peak RSS).
public struct RunReport: Codable, Sendable, Equatable {
    public struct RPC: Codable, Sendable, Equatable {
        public let count: Int
        public let failed: Int
        public let expectedRefusals: Int
        public let p50Ms: Double
        public let p99Ms: Double
        public let p999Ms: Double
        public let maxMs: Double

        enum CodingKeys: String, CodingKey {
            case count, failed
            case expectedRefusals = "expected_refusals"
            case p50Ms = "p50_ms", p99Ms = "p99_ms", p999Ms = "p999_ms", maxMs = "max_ms"
        }
    }

    public struct Realtime: Codable, Sendable, Equatable {
        public let deliveries: Int
        public let missed: Int
        public let p50Ms: Double
        public let p99Ms: Double
        public let maxMs: Double

        init(_ tally: DeliveryTally) {
            deliveries = Int(tally.delays.count)
            missed = tally.missed
            p50Ms = tally.delays.percentileMilliseconds(0.5)
            p99Ms = tally.delays.percentileMilliseconds(0.99)
            maxMs = tally.delays.maxMilliseconds
        }

        enum CodingKeys: String, CodingKey {
            case deliveries, missed
            case p50Ms = "p50_ms", p99Ms = "p99_ms", maxMs = "max_ms"
        }
    }

    /// What one server process spent over the run: for PostgreSQL, the postmaster and every backend.
    public struct ServerCost: Codable, Sendable, Equatable {
        public let cpuS: Double
        public let calls: Int
        public let msPerCall: Double
        public let peakRssMb: Double

        public init(cpuSeconds: Double, calls: Int, peakRSSKilobytes: Int) {
            cpuS = cpuSeconds
            self.calls = calls
            msPerCall = calls > 0 ? cpuSeconds * 1_000 / Double(calls) : 0
            peakRssMb = Double(peakRSSKilobytes) / 1_024
        }

        enum CodingKeys: String, CodingKey {
            case calls
            case cpuS = "cpu_s", msPerCall = "ms_per_call", peakRssMb = "peak_rss_mb"
        }
    }

    public let rpcs: [String: RPC]
    public let realtime: Realtime
    public let realtimeStreams: [String: Realtime]
    public let cpu: [String: ServerCost]
    public let users: Int
    public let durationS: Double

    enum CodingKeys: String, CodingKey {
        case rpcs, realtime, users, cpu
        case realtimeStreams = "realtime_streams"
        case durationS = "duration_s"
    }

    /// `realtime` per kind of stream; the report's `realtime` is all of them together.
    public init(
        rpcs: [String: RPCTally], realtime: [String: DeliveryTally], cpu: [String: ServerCost] = [:],
        users: Int, duration: Duration
    ) {
        self.rpcs = rpcs.mapValues { tally in
            RPC(
                count: tally.count, failed: tally.failed, expectedRefusals: tally.expectedRefusals,
                p50Ms: tally.latencies.percentileMilliseconds(0.5),
                p99Ms: tally.latencies.percentileMilliseconds(0.99),
                p999Ms: tally.latencies.percentileMilliseconds(0.999), maxMs: tally.latencies.maxMilliseconds)
        }
        self.realtime = Realtime(realtime.values.reduce(into: DeliveryTally()) { $0.merge($1) })
        realtimeStreams = realtime.mapValues(Realtime.init)
        self.cpu = cpu
        self.users = users
        self.durationS = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }
}
