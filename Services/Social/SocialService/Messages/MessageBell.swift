import KindredPostgres
import Logging
import Synchronization

/// Wakes the `WatchMessages` streams of every instance when a message for their user commits.
///
/// Why not `pg_notify` in the sending transaction: PostgreSQL takes a cluster-wide lock at the commit of any
/// transaction that notified and holds it through the commit's WAL flush, so every `SendMessage` commit
/// would wait for every other. Here the sending transaction notifies nobody; once it committed, the sender's
/// instance `announce`s the recipient, and announcements are sent in batches, one small transaction at a
/// time per instance (at most one in flight; what arrives meanwhile goes in the next), committed without
/// waiting for the flush. A stream reads by position in its user's inbox, so a wake-up is only a hint: one
/// lost to a crash between commit and announcement delays that message to the user's next one, and skips
/// nothing.
///
/// One LISTEN connection serves every stream of the process (opened with the first); a notification wakes
/// only its recipient's streams, and a (re)connection wakes all of them, since what was announced while it
/// was down was not heard.
final class MessageBell: Sendable {
    static let channel = "social_messages"
    /// Recipients announced per transaction at most.
    static let announceBatch = 500

    /// One stream's place at the bell: `rings` yields when its recipient may have news, and finishes when
    /// the bell closes (the drain) or the waiting task is cancelled.
    struct Subscription: Sendable {
        fileprivate let id: UInt64
        fileprivate let recipient: String
        let rings: AsyncStream<Void>
    }

    private struct State {
        var listener: PostgresListener?
        var follower: Task<Void, Never>?
        var streams: [String: [UInt64: AsyncStream<Void>.Continuation]] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
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

    /// Rings for `recipient`'s messages from now on; nil once the bell is closed.
    func subscribe(_ recipient: String) throws -> Subscription? {
        // Rung while the stream was busy sending: one ring waits, more add nothing.
        let (rings, continuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        return try state.withLock { state in
            guard !state.isClosed else { return nil }
            if state.listener == nil {
                let listener = try PostgresListener(
                    configuration: pool.configuration, channels: [Self.channel], logger: logger)
                state.listener = listener
                state.follower = Task { [self] in await follow(listener) }
            }
            state.nextID += 1
            state.streams[recipient, default: [:]][state.nextID] = continuation
            return Subscription(id: state.nextID, recipient: recipient, rings: rings)
        }
    }

    /// Forgets a stream that ended.
    func unsubscribe(_ subscription: Subscription) {
        let continuation = state.withLock { state in
            let removed = state.streams[subscription.recipient]?.removeValue(forKey: subscription.id)
            if state.streams[subscription.recipient]?.isEmpty == true {
                state.streams[subscription.recipient] = nil
            }
            return removed
        }
        continuation?.finish()
    }

    /// Ends every stream and stops listening; later subscriptions are refused. Announcing goes on (calls
    /// still finishing send messages other instances stream); what is being announced is waited for.
    func close() async {
        let (listener, follower, streams, announcer) = state.withLock { state in
            state.isClosed = true
            defer {
                state.listener = nil
                state.follower = nil
                state.streams = [:]
            }
            return (state.listener, state.follower, state.streams.values.flatMap(\.values), state.announcer)
        }
        streams.forEach { $0.finish() }
        await listener?.close()
        await follower?.value
        await announcer?.value
    }

    /// Tells the streams of `recipient`, in every instance, that a message for them committed.
    func announce(_ recipient: String) {
        state.withLock { state in
            state.unannounced.insert(recipient)
            if state.announcer == nil { state.announcer = Task { [self] in await announcePending() } }
        }
    }

    /// Sends what waits to be announced, a batch per transaction, until nothing does.
    private func announcePending() async {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.unannounced.prefix(Self.announceBatch))
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

    /// Rings for each recipient the listener hears of, and for everyone when it (re)connects.
    private func follow(_ listener: PostgresListener) async {
        for await notification in listener.notifications {
            let ringing = state.withLock { state in
                switch notification {
                case .notification(_, let recipient): Array((state.streams[recipient] ?? [:]).values)
                case .listening: state.streams.values.flatMap(\.values)
                }
            }
            for continuation in ringing { continuation.yield() }
        }
    }
}
