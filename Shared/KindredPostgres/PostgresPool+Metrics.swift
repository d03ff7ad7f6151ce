import KindredMetrics

/// The pool's use and waits, read under its lock when scraped.
extension PostgresPool {
    func registerMetrics() {
        MetricsRegistry.process.register { [weak self] text in self?.collectMetrics(into: &text) }
    }

    func collectMetrics(into text: inout PrometheusText) {
        let (slots, queued, queuedTotal, waitedTotal) = state.withLock {
            ($0.slots, $0.shared.count, $0.queuedTotal, $0.waitedTotal)
        }
        let pool = configuration.metricLabels
        text.family(
            "kindred_postgres_pool_connections", .gauge,
            help:
                "The pool's connection threads by state: busy (running statements or held by a transaction), idle, down."
        )
        let busy = slots.filter { $0.isUp && (!$0.isIdle || $0.lease != nil) }.count
        let idle = slots.filter { $0.isUp }.count - busy
        for (state, count) in [("busy", busy), ("idle", idle), ("down", slots.count - busy - idle)] {
            text.sample("kindred_postgres_pool_connections", labels: pool + [("state", state)], Double(count))
        }
        text.family(
            "kindred_postgres_pool_queued", .gauge,
            help: "Statements waiting now for one of the pool's connection threads.")
        text.sample("kindred_postgres_pool_queued", labels: pool, Double(queued))
        text.family(
            "kindred_postgres_pool_statements_total", .counter,
            help:
                "Statements and transactions queued for the connection threads (not those on a loop's connection)."
        )
        text.sample("kindred_postgres_pool_statements_total", labels: pool, Double(queuedTotal))
        text.family(
            "kindred_postgres_pool_waits_total", .counter,
            help: "Of those, the ones that found no connection idle and waited behind others.")
        text.sample("kindred_postgres_pool_waits_total", labels: pool, Double(waitedTotal))
        text.family(
            "kindred_postgres_loop_connections", .gauge,
            help: "Event loops' own connections, which serve the statements handlers make on their loop.")
        text.sample(
            "kindred_postgres_loop_connections", labels: pool,
            Double(loopConnections.withLock { $0.count }))
    }
}

extension PoolState {
    mutating func countQueued(waited: Bool) {
        queuedTotal += 1
        if waited { waitedTotal += 1 }
    }
}

extension PostgresConfiguration {
    /// Which pool a sample belongs to: its database and role (each service connects as its own).
    var metricLabels: [(key: String, value: String)] {
        func value(_ keyword: String) -> String { parameters.first { $0.keyword == keyword }?.value ?? "" }
        return [("database", value("dbname")), ("user", value("user"))]
    }
}
