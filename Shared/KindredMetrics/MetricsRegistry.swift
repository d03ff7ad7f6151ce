import Synchronization

/// What a process's `/metrics` shows: each part of the service registers a source once, and a scrape asks
/// every source, in registration order, to append its families.
public final class MetricsRegistry: Sendable {
    public typealias Source = @Sendable (inout PrometheusText) async -> Void

    private let sources = Mutex<[Source]>([])

    public init() {}

    /// Adds a source; it may read a database (a queue's length), so it is asked only when scraped.
    public func register(_ source: @escaping Source) {
        sources.withLock { $0.append(source) }
    }

    /// The exposition of every source.
    public func render() async -> PrometheusText {
        var text = PrometheusText()
        for source in sources.withLock({ $0 }) { await source(&text) }
        return text
    }
}

extension MetricsRegistry {
    /// The process's registry: the parts of a service (its server, pool, event feeds and consumers, mail
    /// worker) register here when made, holding themselves weakly, and the metrics endpoint shows it.
    public static let process = MetricsRegistry()
}
