import KindredHandlers
import KindredPostgres
import Logging
import Synchronization

/// Tells the `WatchMessages` streams of every instance that a message for their user committed: a
/// notification on `channel` that the streams' `RecipientBell` hears.
///
/// Why not `pg_notify` in the sending transaction: PostgreSQL takes a cluster-wide lock at the commit of any
/// transaction that notified and holds it through the commit's WAL flush, so every `SendMessage` commit would
/// wait for every other. Here the sending transaction notifies nobody; once it committed, the sender's
/// instance announces the recipient, in batches, one small transaction at a time per instance (at most one in
/// flight; what arrives meanwhile goes in the next), committed without waiting for the flush. A stream reads
/// by position in its user's inbox, so an announcement lost to a crash between commit and announcement delays
/// that message to the user's next one, and skips nothing.
final class MessageAnnouncer: Sendable {
    static let channel = "social_messages"
    /// Recipients announced per transaction at most.
    static let batch = 500

    private struct State {
        var unannounced: Set<String> = []
        /// Sending what is unannounced; nil when nothing is.
        var announcer: Task<Void, Never>?
    }

    private let pool: PostgresPool
    private let logger: Logger
    private let state = Mutex(State())

    init(pool: PostgresPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// Tells the streams of `recipient`, in every instance, that a message for them committed.
    func announce(_ recipient: UserID) {
        state.withLock { state in
            state.unannounced.insert(recipient.description)
            if state.announcer == nil { state.announcer = Task { [self] in await announcePending() } }
        }
    }

    /// Waits for what is being announced (at the drain: calls still finishing send messages other instances
    /// stream, so announcing goes on).
    func flush() async {
        await state.withLock { $0.announcer }?.value
    }

    /// Sends what waits to be announced, a batch per transaction, until nothing does.
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
                try await MessageStore.announce(batch, on: Self.channel, pool)
            } catch {
                logger.warning(
                    "could not announce new messages",
                    metadata: ["error": "\(error)", "recipients": "\(batch.count)"])
            }
        }
    }
}
