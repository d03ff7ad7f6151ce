public import KindredPostgres
public import Logging
internal import KindredThreads

/// Reads another service's event stream in the background and hands each event to the service: the
/// handler's writes and the stored cursor commit in one transaction, so after a crash, an outage or a
/// handler error the consumer resumes after the last event whose effects committed. Delivery is
/// at-least-once (a handler may see an event again after a failure): handlers must be idempotent.
public struct EventConsumer<Events: AsyncSequence>: Sendable where Events.Element: SequencedEvent {
    /// The stream's name in `event_cursors`: the producing service, `"identity"`.
    public let source: String
    let cursors: EventCursors
    let pool: PostgresPool
    let logger: Logger
    let fetch: @Sendable (Int64) -> Events
    let handle: @Sendable (Events.Element, PostgresTransaction) async throws -> Void

    /// A consumer of `source`, storing its cursor in `schema` (the consumer's own, with the
    /// `EventCursors` migration). `fetch` opens the source's stream after a cursor (the `WatchEvents` call);
    /// `handle` applies one event inside the transaction that also stores its cursor.
    public init(
        source: String, schema: String, pool: PostgresPool, logger: Logger,
        fetch: @escaping @Sendable (_ afterCursor: Int64) -> Events,
        handle:
            @escaping @Sendable (_ event: Events.Element, _ transaction: PostgresTransaction) async throws
            -> Void
    ) {
        self.source = source
        self.cursors = EventCursors(schema: schema)
        self.pool = pool
        var logger = logger
        logger[metadataKey: "event_source"] = "\(source)"
        self.logger = logger
        self.fetch = fetch
        self.handle = handle
    }

    /// Consumes until the calling task is cancelled (the service's shutdown). A broken stream, an
    /// unreachable database or a handler error is logged, and the stream is opened again from the stored
    /// cursor after a pause that grows while nothing succeeds.
    public func run() async {
        var backoff = Backoff.events
        while !Task.isCancelled {
            do {
                let after = try await cursors.start(source, pool)
                for try await event in fetch(after) {
                    try await consume(event)
                    backoff.reset()
                }
                logger.info("event stream ended; reopening")
            } catch {
                if Task.isCancelled { return }
                logger.warning("event consumer failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: backoff.next())
        }
    }

    /// Handles one event unless its cursor is already stored (another instance handled it first).
    private func consume(_ event: Events.Element) async throws {
        do {
            try await pool.transaction { tx in
                guard try await cursors.lock(source, in: tx) < event.cursor else { return }
                try await handle(event, tx)
                try await cursors.store(event.cursor, for: source, in: tx)
            }
        } catch {
            throw EventFailed(cursor: event.cursor, error: error)
        }
    }
}

/// An event could not be handled (the handler threw, or the database failed): it is delivered again.
struct EventFailed: Error, CustomStringConvertible {
    let cursor: Int64
    let error: any Error

    var description: String { "handling the event at cursor \(cursor) failed: \(error)" }
}
