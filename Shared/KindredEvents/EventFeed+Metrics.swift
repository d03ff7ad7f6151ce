import KindredMetrics
import KindredPostgres

/// The outbox's metrics, read from the table when scraped: the sequencer's backlog and the newest cursor.
extension EventFeed {
    /// Adds this feed to the process's metrics, for as long as it exists.
    func registerMetrics() {
        MetricsRegistry.process.register { [weak self] text in await self?.collectMetrics(into: &text) }
    }

    func collectMetrics(into text: inout PrometheusText) async {
        text.family(
            "kindred_event_outbox_backlog", .gauge,
            help: "Committed events still waiting for a cursor, by outbox (the sequencer's backlog).")
        text.family(
            "kindred_event_outbox_head_cursor", .gauge,
            help: "The newest cursor given, by outbox; a consumer's lag is this minus its cursor.")
        guard let (backlog, head) = try? await outbox.backlog(pool) else { return }
        let outboxName = "\(outbox.schema).\(outbox.name)"
        text.sample("kindred_event_outbox_backlog", ["outbox": outboxName], Double(backlog))
        text.sample("kindred_event_outbox_head_cursor", ["outbox": outboxName], Double(head))
    }
}

extension EventOutbox {
    /// How many committed events wait for a cursor, and the newest cursor: two index probes.
    func backlog(_ pool: PostgresPool) async throws -> (waiting: Int64, head: Int64) {
        try await pool.pureRead(
            """
            SELECT (SELECT count(*) FROM \(table) WHERE cursor IS NULL),
                   (SELECT coalesce(max(cursor), 0) FROM \(table))
            """
        )[0].decode((Int64, Int64).self)
    }
}
