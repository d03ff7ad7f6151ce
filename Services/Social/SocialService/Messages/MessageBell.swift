import KindredPostgres
import Logging
import Synchronization

/// Wakes the `WatchMessages` streams of every instance when a message for their user commits, and lets the
/// streams of one user in this process share what a wake-up reads (`MessageBell+Reading.swift`).
///
/// Why not `pg_notify` in the sending transaction: PostgreSQL takes a cluster-wide lock at the commit of any
/// transaction that notified and holds it through the commit's WAL flush, so every `SendMessage` commit
/// would wait for every other. Here the sending transaction notifies nobody; once it committed, the sender's
/// instance `announce`s the recipient (`MessageBell+Announcing.swift`). A stream reads by position in its
/// user's inbox, so a wake-up is only a hint: one lost to a crash between commit and announcement delays that
/// message to the user's next one, and skips nothing.
///
/// One LISTEN connection serves every stream of the process (opened with the first); a notification wakes
/// only its recipient's streams, and a (re)connection wakes all of them, since what was announced while it
/// was down was not heard.
final class MessageBell: Sendable {
    static let channel = "social_messages"

    /// One stream's place at the bell.
    struct Subscription: Sendable {
        fileprivate let id: UInt64
        let recipient: String
        /// How many times the recipient's bell had rung when the stream subscribed.
        let subscribedAt: UInt64
        /// Yields the recipient's ring count when they may have news (the newest, if it rang again while the
        /// stream was busy); finishes when the bell closes (the drain) or the waiting task is cancelled.
        let rings: AsyncStream<UInt64>
    }

    /// The streams of one recipient in this process, and what they share.
    struct Recipient {
        var streams: [UInt64: AsyncStream<UInt64>.Continuation] = [:]
        /// Rings since the first of these streams subscribed.
        var rung: UInt64 = 0
        /// The latest read of the recipient's inbox, which streams at the same position may share.
        var lastRead: SharedRead?
    }

    struct State {
        var listener: PostgresListener?
        var follower: Task<Void, Never>?
        var recipients: [String: Recipient] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
        var unannounced: Set<String> = []
        /// Sending what is unannounced; nil when nothing is.
        var announcer: Task<Void, Never>?
    }

    let pool: PostgresPool
    let logger: Logger
    let readInbox: InboxRead
    let state = Mutex(State())

    /// A bell on `pool`'s database whose streams read their inbox with `readInbox`.
    init(pool: PostgresPool, logger: Logger, readInbox: @escaping InboxRead) {
        self.pool = pool
        self.logger = logger
        self.readInbox = readInbox
    }

    /// Rings for `recipient`'s messages from now on; nil once the bell is closed.
    func subscribe(_ recipient: String) throws -> Subscription? {
        // Rung while the stream was busy sending: the newest ring waits, more add nothing.
        let (rings, continuation) = AsyncStream.makeStream(
            of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        return try state.withLock { state in
            guard !state.isClosed else { return nil }
            if state.listener == nil {
                let listener = try PostgresListener(
                    configuration: pool.configuration, channels: [Self.channel], logger: logger)
                state.listener = listener
                state.follower = Task { [self] in await follow(listener) }
            }
            state.nextID += 1
            state.recipients[recipient, default: Recipient()].streams[state.nextID] = continuation
            return Subscription(
                id: state.nextID, recipient: recipient, subscribedAt: state.recipients[recipient]!.rung,
                rings: rings)
        }
    }

    /// Forgets a stream that ended; the recipient's last read goes with their last stream.
    func unsubscribe(_ subscription: Subscription) {
        let continuation = state.withLock { state in
            let removed = state.recipients[subscription.recipient]?.streams.removeValue(
                forKey: subscription.id)
            if state.recipients[subscription.recipient]?.streams.isEmpty == true {
                state.recipients[subscription.recipient] = nil
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
                state.recipients = [:]
            }
            return (
                state.listener, state.follower, state.recipients.values.flatMap(\.streams.values),
                state.announcer
            )
        }
        streams.forEach { $0.finish() }
        await listener?.close()
        await follower?.value
        await announcer?.value
    }

    /// Rings for each recipient the listener hears of, and for everyone when it (re)connects.
    private func follow(_ listener: PostgresListener) async {
        for await notification in listener.notifications {
            let ringing = state.withLock { state in
                let chosen: [String] =
                    switch notification {
                    case .notification(_, let recipient): [recipient]
                    case .listening: Array(state.recipients.keys)
                    }
                return chosen.flatMap { name -> [(AsyncStream<UInt64>.Continuation, UInt64)] in
                    guard var recipient = state.recipients[name] else { return [] }
                    recipient.rung += 1
                    state.recipients[name] = recipient
                    return recipient.streams.values.map { ($0, recipient.rung) }
                }
            }
            for (continuation, rung) in ringing { continuation.yield(rung) }
        }
    }
}
