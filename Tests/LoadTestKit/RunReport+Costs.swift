extension RunReport {
    /// What one process spent over the run: for PostgreSQL, the postmaster and every backend; CPU (user and
    /// system, every thread) and context switches (voluntary and not, every thread), each also per call.
    public struct ServerCost: Codable, Sendable, Equatable {
        public let cpuS: Double
        public let calls: Int
        public let msPerCall: Double
        public let contextSwitches: Int
        public let voluntaryContextSwitches: Int
        public let contextSwitchesPerCall: Double
        public let peakRssMb: Double

        public init(
            cpuSeconds: Double, calls: Int, peakRSSKilobytes: Int,
            switches: ContextSwitches = ContextSwitches()
        ) {
            cpuS = cpuSeconds
            self.calls = calls
            msPerCall = calls > 0 ? cpuSeconds * 1_000 / Double(calls) : 0
            contextSwitches = switches.total
            voluntaryContextSwitches = switches.voluntary
            contextSwitchesPerCall = calls > 0 ? Double(switches.total) / Double(calls) : 0
            peakRssMb = Double(peakRSSKilobytes) / 1_024
        }

        enum CodingKeys: String, CodingKey {
            case calls
            case cpuS = "cpu_s", msPerCall = "ms_per_call", peakRssMb = "peak_rss_mb"
            case contextSwitches = "context_switches", voluntaryContextSwitches = "voluntary_context_switches"
            case contextSwitchesPerCall = "context_switches_per_call"
        }
    }

    /// How the tool kept its schedule. Open loop: `sent` calls went out, `late` of them more than
    /// `late_tolerance_ms` after their due time (the tool's own lag: `lag_*`), `expired` were never sent as
    /// their deadline passed before the tool got to them, `unsent` were due before the end and not reached.
    /// Both loops: `stopped` calls were still running at the hard stop (the duration and `deadline_ms` past)
    /// and were cancelled. A run whose `late`, `expired` or `unsent` is not 0 measured the tool too.
    public struct Generator: Codable, Sendable, Equatable {
        public let rate: Double
        public let deadlineMs: Double
        public let sent: Int
        public let late: Int
        public let lateToleranceMs: Double
        public let expired: Int
        public let unsent: Int
        public let stopped: Int
        public let lagP50Ms: Double
        public let lagP99Ms: Double
        public let lagMaxMs: Double

        /// `rate` 0 for the closed loop.
        public init(
            rate: Double = 0, deadline: Duration = .zero, lateness: SendLateness = SendLateness(),
            expired: Int = 0,
            unsent: Int = 0, stopped: Int = 0
        ) {
            self.rate = rate
            deadlineMs = deadline.asMilliseconds
            sent = Int(lateness.lags.count)
            late = lateness.late
            lateToleranceMs = SendLateness.tolerance.asMilliseconds
            self.expired = expired
            self.unsent = unsent
            self.stopped = stopped
            lagP50Ms = lateness.lags.percentileMilliseconds(0.5)
            lagP99Ms = lateness.lags.percentileMilliseconds(0.99)
            lagMaxMs = lateness.lags.maxMilliseconds
        }

        enum CodingKeys: String, CodingKey {
            case rate, sent, late, expired, unsent, stopped
            case deadlineMs = "deadline_ms", lateToleranceMs = "late_tolerance_ms"
            case lagP50Ms = "lag_p50_ms", lagP99Ms = "lag_p99_ms", lagMaxMs = "lag_max_ms"
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    public var asSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    var asMilliseconds: Double { asSeconds * 1_000 }
}
