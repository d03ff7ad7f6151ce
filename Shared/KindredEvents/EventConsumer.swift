public import KindredPostgres
public import Logging
internal import KindredThreads
import KindredMetrics

/// Reads another service's event stream in the background and hands each event to the service: the
/// handler's writes and the stored cursor commit in one transaction, so after a crash, an outage or a
/// handler error the consumer resumes after the last event whose effects committed. Delivery is
/// at-least-once (a handler may see an event again after a failure): handlers must be idempotent.
///
/// The events that arrive while a transaction commits are handled together in the next one (at most
/// `batchLimit`), with the cursor stored once: one commit's WAL flush serves the whole batch, so the
/// consumer keeps up with a busy source, while a lone event is still handled as soon as it arrives.
public struct EventConsumer<Events: AsyncSequence>: Sendable where Events.Element: SequencedEvent {
    /// The stream's name in `event_cursors`: the producing service, `"identity"`.
    public let source: String
    let cursors: EventCursors
    let pool: PostgresPool
    let logger: Logger
    let fetch: @Sendable (Int64) -> Events
    let handle: @Sendable (Events.Element, PostgresTransaction) async throws -> Void
    /// The most events one transaction handles; 1 commits each event alone.
    let batchLimit: Int
    let progress: EventConsumerProgress

    /// A consumer of `source`, storing its cursor in `schema` (the consumer's own, with the
    /// `EventCursors` migration). `fetch` opens the source's stream after a cursor (the `WatchEvents` call);
    /// `handle` applies one event inside the transaction that also stores its cursor.
    public init(
        source: String, schema: String, pool: PostgresPool, logger: Logger, batchLimit: Int = 256,
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
        self.batchLimit = max(1, batchLimit)
        progress = EventConsumerProgress(source: source, consumer: schema)
    }

    /// Consumes until the calling task is cancelled (the service's shutdown). A broken stream, an
    /// unreachable database or a handler error is logged, and the stream is opened again from the stored
    /// cursor after a pause that grows while nothing succeeds.
    public func run() async {
        var backoff = Backoff.events
        while !Task.isCancelled {
            do {
                // Each opening of the stream is a trace of its own: the WatchEvents call carries it.
                try await TraceContext.$current.withValue(.start()) {
                    let after = try await cursors.start(source, pool)
                    try await consumeStream(after: after) { backoff.reset() }
                    logger.info("event stream ended; reopening")
                }
            } catch {
                if Task.isCancelled { return }
                progress.failed()
                logger.warning("event consumer failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: backoff.next())
        }
    }

    /// Reads the stream after `after` ahead into a buffer while handling what it holds, batch by batch,
    /// until the stream ends or something fails.
    private func consumeStream(after: Int64, succeeded: () -> Void) async throws {
        let readAhead = EventReadAhead<Events.Element>(capacity: batchLimit)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [fetch] in await readAhead.fill(from: fetch(after)) }
            defer {
                readAhead.finish(.failure(CancellationError()))
                group.cancelAll()
            }
            while let batch = try await readAhead.take(upTo: batchLimit) {
                // Each batch is a trace of its own, so its log lines can be told apart; each event's handler
                // runs in the event's trace (`handleInItsTrace`).
                try await TraceContext.$current.withValue(.start()) {
                    logger.debug(
                        "event batch",
                        metadata: [
                            "events": "\(batch.count)", "last_cursor": "\(batch[batch.count - 1].cursor)",
                        ])
                    try await consume(batch)
                }
                succeeded()
            }
        }
    }

    /// Handles a batch in one transaction. When that fails, its events are handled again one per
    /// transaction, so those before the failing one commit and the failure names the event it stops at.
    private func consume(_ batch: [Events.Element]) async throws {
        do {
            try await commit(batch)
        } catch  where batch.count > 1 {
            progress.failed()
            logger.debug(
                "event batch failed; handling its events one by one", metadata: ["error": "\(error)"])
            for event in batch { try await commit([event]) }
        }
    }

    /// Handles the events whose cursors are not stored yet (another instance may have handled some first)
    /// and stores the last one's cursor, in one transaction.
    private func commit(_ events: [Events.Element]) async throws {
        do {
            let handled = try await pool.transaction { tx -> (last: Int64, count: Int)? in
                let stored = try await cursors.lock(source, in: tx)
                let unhandled = events.filter { $0.cursor > stored }
                guard let last = unhandled.last else { return nil }
                for event in unhandled { try await handleInItsTrace(event, tx) }
                cursors.store(last.cursor, for: source, in: tx)
                return (last.cursor, unhandled.count)
            }
            if let handled { progress.committed(through: handled.last, events: handled.count) }
        } catch {
            throw EventFailed(cursors: events[0].cursor...events[events.count - 1].cursor, error: error)
        }
    }

    /// Handles `event` in a new span of the trace that wrote it (a new trace when it carries none), so the
    /// handler's log lines and the calls it makes carry the writer's trace id. Its first line names the event,
    /// as a served call's access line does: an event that changes nothing is still found by its trace.
    private func handleInItsTrace(_ event: Events.Element, _ tx: PostgresTransaction) async throws {
        try await TraceContext.$current.withValue(.continuing(event.traceparent)) {
            logger.info("handling event", metadata: ["cursor": "\(event.cursor)"])
            try await handle(event, tx)
        }
    }
}

/// Events could not be handled (a handler threw, or the database failed): they are delivered again.
struct EventFailed: Error, CustomStringConvertible {
    let cursors: ClosedRange<Int64>
    let error: any Error

    var description: String {
        let events =
            cursors.count == 1
            ? "the event at cursor \(cursors.lowerBound)" : "the events at cursors \(cursors)"
        return "handling \(events) failed: \(error)"
    }
}
