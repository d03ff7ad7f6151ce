public import Logging
internal import Synchronization

/// Tells the streams of every instance that something for their recipients committed: a notification per
/// recipient on `channel`, which their `RecipientBell` hears.
///
/// Why not `pg_notify` in the writing transaction: PostgreSQL takes a cluster-wide lock at the commit of any
/// transaction that notified and holds it through the commit's WAL flush, so every such commit waits for every
/// other, and the rows the transaction locked stay locked meanwhile. Here the writing transaction notifies
/// nobody (`PostgresTransaction.announceAfterCommit`); once it committed, this instance announces the
/// recipients in batches, one statement in its own implicit transaction at a time (at most one in flight; what
/// arrives meanwhile goes in the next), committed without waiting for the flush, from the committing loop's own
/// connection. A stream reads by position, so an announcement lost to a crash between commit and announcement
/// delays that row to the recipient's next one, and skips nothing.
public final class RecipientAnnouncer: Sendable {
    /// Recipients announced per statement at most.
    static let batch = 500

    private struct State {
        var unannounced: Set<String> = []
        /// Sending what is unannounced; nil when nothing is.
        var announcer: Task<Void, Never>?
    }

    public let channel: String
    private weak let pool: PostgresPool?
    private let logger: Logger
    private let state = Mutex(State())

    init(channel: String, pool: PostgresPool, logger: Logger) {
        self.channel = channel
        self.pool = pool
        self.logger = logger
    }

    /// Announces `recipients` on every instance's streams, soon, in a statement of this announcer's own.
    public func announce(_ recipients: some Sequence<String>) {
        state.withLock { state in
            state.unannounced.formUnion(recipients)
            guard state.announcer == nil, !state.unannounced.isEmpty else { return }
            // On the committing loop, so the statement goes out on that loop's connection, not a pool thread.
            state.announcer = Task(executorPreference: pool?.currentLoop() as? any TaskExecutor) { [self] in
                await announcePending()
            }
        }
    }

    /// Waits for what is being announced.
    public func flush() async {
        await state.withLock { $0.announcer }?.value
    }

    /// Sends what waits to be announced, a batch per statement, until nothing does.
    private func announcePending() async {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.unannounced.prefix(Self.batch))
                state.unannounced.subtract(batch)
                if batch.isEmpty { state.announcer = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                guard let pool else { throw PostgresError.closed }
                // A wake-up need not outlive a crash: its implicit transaction does not hold the notify lock
                // through a WAL flush (set_config is local to that transaction, which ends with the statement).
                try await pool.query(
                    """
                    SELECT set_config('synchronous_commit', 'off', true), count(pg_notify(\(channel), r))
                    FROM unnest(\(PostgresArray(batch))) r
                    """)
            } catch {
                logger.warning(
                    "could not announce to streams",
                    metadata: ["channel": "\(channel)", "error": "\(error)", "recipients": "\(batch.count)"])
            }
        }
    }
}

extension PostgresPool {
    /// This pool's announcer on `channel`, made on first use.
    public func announcer(on channel: String) -> RecipientAnnouncer {
        announcers.withLock { announcers in
            if let existing = announcers[channel] { return existing }
            let made = RecipientAnnouncer(channel: channel, pool: self, logger: logger)
            announcers[channel] = made
            return made
        }
    }

    /// Waits until every announcement made so far has been sent (before a drain closes the pool).
    public func flushAnnouncements() async {
        for announcer in announcers.withLock({ Array($0.values) }) { await announcer.flush() }
    }
}
