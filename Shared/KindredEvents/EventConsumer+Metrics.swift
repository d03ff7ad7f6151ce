import KindredMetrics

/// What one consumer has done, counted as it goes and shown when scraped.
final class EventConsumerProgress: Sendable {
    let source: String
    let consumer: String
    /// The cursor stored last, events handled, and batches that failed (and are retried).
    private let counters = AtomicCounters(count: 3)

    init(source: String, consumer: String) {
        self.source = source
        self.consumer = consumer
        MetricsRegistry.process.register { [weak self] text in self?.collect(into: &text) }
    }

    func committed(through cursor: Int64, events: Int) {
        counters.add(1, events)
        // Several instances may commit the same stream: keep the highest cursor this one stored.
        let stored = counters.load(0)
        if cursor > stored { counters.add(0, Int(cursor) - stored) }
    }

    func failed() {
        counters.add(2)
    }

    private func collect(into text: inout PrometheusText) {
        let labels: KeyValuePairs = ["source": source, "consumer": consumer]
        text.family(
            "kindred_event_consumer_cursor", .gauge,
            help: "The last cursor a consumer stored, by source stream and consuming schema.")
        text.sample("kindred_event_consumer_cursor", labels, Double(counters.load(0)))
        text.family("kindred_event_consumer_events_total", .counter, help: "Events a consumer handled.")
        text.sample("kindred_event_consumer_events_total", labels, Double(counters.load(1)))
        text.family(
            "kindred_event_consumer_failures_total", .counter,
            help: "Batches or streams that failed and were retried.")
        text.sample("kindred_event_consumer_failures_total", labels, Double(counters.load(2)))
    }
}
