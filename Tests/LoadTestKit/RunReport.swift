public import Foundation

/// The whole run as issue 17 fixes its shape, so that runs can be compared by a script:
/// `{"rpcs": {"<Service>/<Method>": {"count", "failed", "expected_refusals", "p50_ms", "p99_ms", "p999_ms",
/// "max_ms"}}, "realtime": {"deliveries", "missed", "p50_ms", "p99_ms", "max_ms"}, "users", "duration_s"}`; then,
/// beyond the keys, `realtime_streams` (the same per kind of stream: messages, profile activity) and
/// `cpu` (per process the run could see, the tool's own included: CPU seconds, context switches, each per
/// call, peak RSS), each RPC's `failures` by status and reason and `shed_p99_ms` (how fast the calls it shed were
/// refused), `generator` (how the tool kept its
/// schedule: calls sent late by the tool itself, calls never sent, calls its hard stop cut off), `timeline` (the
/// open loop second by second: `Second`), for a run with `--surge`, `surge` (how it was served: `Surge`), and
/// `load_started_at` (when the load began, after the ramp-up: the timeline's second 0, in UTC, to place a run
/// beside PostgreSQL's log and the day's other runs).
public struct RunReport: Codable, Sendable, Equatable {
    public struct RPC: Codable, Sendable, Equatable {
        public let count: Int
        public let failed: Int
        public let expectedRefusals: Int
        public let p50Ms: Double
        public let p99Ms: Double
        public let p999Ms: Double
        public let maxMs: Double
        /// Status name → reason (`ErrorInfo`'s, or `none`) → calls.
        public let failures: [String: [String: Int]]
        /// The p99 of how long shed calls took to be refused, from their send; absent when none was shed.
        public let shedP99Ms: Double?

        init(_ tally: RPCTally) {
            count = tally.count
            failed = tally.failed
            expectedRefusals = tally.expectedRefusals
            p50Ms = tally.latencies.percentileMilliseconds(0.5)
            p99Ms = tally.latencies.percentileMilliseconds(0.99)
            p999Ms = tally.latencies.percentileMilliseconds(0.999)
            maxMs = tally.latencies.maxMilliseconds
            failures = tally.failures.reduce(into: [:]) {
                $0[$1.key.status, default: [:]][$1.key.reason] = $1.value
            }
            let shed = tally.shedLatencies
            shedP99Ms = shed.count == 0 ? nil : shed.percentileMilliseconds(0.99)
        }

        enum CodingKeys: String, CodingKey {
            case count, failed, failures
            case shedP99Ms = "shed_p99_ms"
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

    public let rpcs: [String: RPC]
    public let realtime: Realtime
    public let realtimeStreams: [String: Realtime]
    public let cpu: [String: ServerCost]
    public let generator: Generator
    public let users: Int
    public let durationS: Double
    /// Calls each replica answered, by service and address (`"social": {"127.0.0.2:50053": 140}`), as the
    /// run's balanced clients spread them.
    public let replicas: [String: [String: Int]]
    /// Whether SIGINT or SIGTERM cut the run short: its figures cover `durationS`, not the asked duration.
    public let interrupted: Bool
    /// The open loop's seconds, from the load's start (none in the closed loop).
    public let timeline: [Second]
    public let surge: Surge?
    /// ISO 8601, UTC; nil when not known.
    public let loadStartedAt: String?

    enum CodingKeys: String, CodingKey {
        case rpcs, realtime, users, cpu, generator, replicas, interrupted, timeline, surge
        case realtimeStreams = "realtime_streams", loadStartedAt = "load_started_at"
        case durationS = "duration_s"
    }

    /// `realtime` per kind of stream; the report's `realtime` is all of them together.
    public init(
        rpcs: [String: RPCTally], realtime: [String: DeliveryTally], cpu: [String: ServerCost] = [:],
        generator: Generator = Generator(), replicas: [String: [String: Int]] = [:], users: Int,
        duration: Duration, interrupted: Bool = false, timeline: LoadTimeline = LoadTimeline(),
        surge: Surge? = nil, loadStartedAt: Date? = nil
    ) {
        self.rpcs = rpcs.mapValues(RPC.init)
        self.realtime = Realtime(realtime.values.reduce(into: DeliveryTally()) { $0.merge($1) })
        realtimeStreams = realtime.mapValues(Realtime.init)
        self.cpu = cpu
        self.generator = generator
        self.replicas = replicas
        self.users = users
        self.durationS = duration.asSeconds
        self.interrupted = interrupted
        self.timeline = timeline.seconds.enumerated().map { Second($0.offset, $0.element) }
        self.surge = surge
        self.loadStartedAt = loadStartedAt?.formatted(.iso8601)
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }
}
