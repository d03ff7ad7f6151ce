import KindredMetrics
import KindredPostgres

/// The mail queue's metrics, read from the outbox when scraped.
extension MailDeliveryWorker {
    /// Adds this worker's outbox to the process's metrics, for as long as the worker exists.
    func registerMetrics() {
        MetricsRegistry.process.register { [weak self] text in await self?.collectMetrics(into: &text) }
    }

    func collectMetrics(into text: inout PrometheusText) async {
        text.family("kindred_mail_queue_messages", .gauge, help: "Mail not sent yet, by outbox.")
        text.family(
            "kindred_mail_queue_oldest_seconds", .gauge,
            help: "Age of the oldest mail not sent yet, by outbox (0 when none waits).")
        guard let (waiting, oldest) = try? await outbox.queue(on: database) else { return }
        let labels: KeyValuePairs = ["outbox": outbox.schema]
        text.sample("kindred_mail_queue_messages", labels, Double(waiting))
        text.sample("kindred_mail_queue_oldest_seconds", labels, oldest)
    }
}

extension MailOutbox {
    /// How many messages are unsent and how long the oldest has waited, in seconds.
    func queue(on database: PostgresPool) async throws -> (waiting: Int64, oldestSeconds: Double) {
        try await database.query(
            """
            SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8
            FROM \(table: self) WHERE sent_at IS NULL
            """
        )[0].decode((Int64, Double).self)
    }
}
