public import KindredMetrics

/// One method's call accounting: what a call adds on its way (a relaxed atomic add at the start and end of
/// its handler, two at its status), read only when metrics are scraped.
final class MethodMetrics: Sendable {
    let method: String
    /// Calls ended, one counter per status code (indexed by its number).
    let calls = AtomicCounters(count: StatusCode.allCases.count)
    let duration = LatencyHistogram()
    /// Handlers running now.
    let inFlight = AtomicCounters(count: 1)

    init(method: String) {
        self.method = method
    }

    func record(_ code: StatusCode, nanoseconds: UInt64) {
        calls.add(code.rawValue)
        duration.record(nanoseconds: nanoseconds)
    }

    /// Lines for this method, none until it is first called (as a client library makes a label set on first
    /// use); the families are declared by `ServerCore.collectMetrics`.
    func collect(into text: inout PrometheusText) {
        let inFlightNow = inFlight.load(0)
        guard inFlightNow > 0 || StatusCode.allCases.contains(where: { calls.load($0.rawValue) > 0 }) else {
            return
        }
        for code in StatusCode.allCases {
            let count = calls.load(code.rawValue)
            guard count > 0 else { continue }
            text.sample(
                "kindred_rpc_calls_total", ["method": method, "code": code.description], Double(count))
        }
        text.histogram("kindred_rpc_duration_seconds", labels: [("method", method)], duration)
        text.sample("kindred_rpc_in_flight", ["method": method], Double(inFlightNow))
    }
}

extension ServerCore {
    /// Every method's calls, durations and handlers in flight, and the open connections.
    func collectMetrics(into text: inout PrometheusText) {
        text.family(
            "kindred_rpc_calls_total", .counter,
            help: "Calls ended, by method and gRPC status code (unknown methods as method=\"unknown\").")
        text.family(
            "kindred_rpc_duration_seconds", .histogram,
            help: "Time from a call's request headers to its status, by method.")
        text.family("kindred_rpc_in_flight", .gauge, help: "Handlers running now, by method.")
        for metrics in methodMetrics { metrics.collect(into: &text) }
        unroutedMetrics.collect(into: &text)
        text.family(
            "kindred_rpc_shed_total", .counter,
            help:
                "Unary calls refused at once (UNAVAILABLE, SERVER_OVERLOADED) because their loop was at its limit."
        )
        text.sample("kindred_rpc_shed_total", [:], Double(shedCalls.load(0)))
        if configuration.admission.isEnabled {
            text.family(
                "kindred_rpc_admission_limit", .gauge,
                help: "Unary calls the event loops admit at once now, summed over the loops (AdmissionLimit)."
            )
            let limits = (0..<admissionLimits.count).reduce(0) { $0 + admissionLimits.load($1) }
            text.sample("kindred_rpc_admission_limit", [:], Double(limits))
        }
        accessLog.collectMetrics(into: &text)
        text.family("kindred_rpc_open_connections", .gauge, help: "Client connections open now.")
        text.sample("kindred_rpc_open_connections", [:], Double(openConnections))
    }
}

extension RPCServer {
    /// Adds the server's call and connection metrics to what `registry` shows.
    public func registerMetrics(in registry: MetricsRegistry) {
        registry.register { [weak core] text in core?.collectMetrics(into: &text) }
    }
}
