public import Foundation

/// The whole run as issue 17 fixes its shape, so that runs can be compared by a script:
/// `{"rpcs": {"<Service>/<Method>": {"count", "failed", "expected_refusals", "p50_ms", "p99_ms", "p999_ms",
/// "max_ms"}}, "realtime": {"deliveries", "missed", "p50_ms", "p99_ms", "max_ms"}, "users", "duration_s"}`.
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

        enum CodingKeys: String, CodingKey {
            case deliveries, missed
            case p50Ms = "p50_ms", p99Ms = "p99_ms", maxMs = "max_ms"
        }
    }

    public let rpcs: [String: RPC]
    public let realtime: Realtime
    public let users: Int
    public let durationS: Double

    enum CodingKeys: String, CodingKey {
        case rpcs, realtime, users
        case durationS = "duration_s"
    }

    public init(rpcs: [String: RPCTally], realtime: DeliveryTally, users: Int, duration: Duration) {
        self.rpcs = rpcs.mapValues { tally in
            RPC(
                count: tally.count, failed: tally.failed, expectedRefusals: tally.expectedRefusals,
                p50Ms: tally.latencies.percentileMilliseconds(0.5),
                p99Ms: tally.latencies.percentileMilliseconds(0.99),
                p999Ms: tally.latencies.percentileMilliseconds(0.999), maxMs: tally.latencies.maxMilliseconds)
        }
        self.realtime = Realtime(
            deliveries: Int(realtime.delays.count), missed: realtime.missed,
            p50Ms: realtime.delays.percentileMilliseconds(0.5),
            p99Ms: realtime.delays.percentileMilliseconds(0.99), maxMs: realtime.delays.maxMilliseconds)
        self.users = users
        self.durationS = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }
}
