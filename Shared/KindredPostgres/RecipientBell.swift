public import Logging
internal import Synchronization

/// Wakes the streams of one recipient in this process when something for them commits, in any instance, and
/// lets those streams share what a wake-up reads (`RecipientBell+Reading.swift`). Family's
/// `WatchNotifications` and social's `WatchMessages` are such streams: rows numbered per recipient (a cursor),
/// read after a cursor, with a NOTIFY on `channel` (payload: the recipient) once a row committed.
///
/// One LISTEN connection serves every stream of the process (opened with the first); a notification wakes
/// only its recipient's streams, and a (re)connection wakes all of them, since what was announced while it
/// was down was not heard. A wake-up is a hint: a stream reads by cursor, so one that is lost (the announcing
/// instance died between its commit and its NOTIFY) delays a row, and skips nothing. Given `heads`, the bell
/// also asks every `headPollInterval` where its recipients' rows end (one read per process, whatever the
/// number of streams) and rings those whose streams stand before it (`RecipientBell+Heads.swift`), so such a
/// row is late by that interval at most rather than until the recipient's next one.
public final class RecipientBell<Row: Sendable>: Sendable {
    /// For each recipient in `after`, up to `limit` of their rows after their cursor, in cursor order (a
    /// recipient without any may be left out): one statement for every recipient woken together
    /// (`RecipientBell+Reading.swift`).
    public typealias Read =
        @Sendable (_ after: [String: Int64], _ limit: Int) async throws -> [String: [Row]]
    /// The cursor of the newest committed row of each of `recipients` that has one.
    public typealias Heads = @Sendable (_ recipients: [String]) async throws -> [String: Int64]

    /// One stream's place at the bell.
    struct Subscription: Sendable {
        let id: UInt64
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
        /// Where each of these streams stands: the cursor of the last row it sent, or where it started.
        var cursors: [UInt64: Int64] = [:]
        /// Rings since the first of these streams subscribed.
        var rung: UInt64 = 0
        /// The latest read of the recipient's rows, which streams at the same cursor may share.
        var lastRead: SharedRead?
    }

    struct State {
        var listener: PostgresListener?
        var follower: Task<Void, Never>?
        /// Asks for the recipients' heads every `headPollInterval`, when the bell was given `heads`.
        var poller: Task<Void, Never>?
        var recipients: [String: Recipient] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
        /// Streams that learned where to begin: from then on, whatever commits reaches them.
        var started = 0
    }

    /// The channel whose notifications (payload: a recipient) ring.
    public let channel: String
    /// Rows one read returns at most for each recipient.
    public let readBatch: Int
    let pool: PostgresPool
    let logger: Logger
    let cursor: @Sendable (Row) -> Int64
    let read: Read
    let heads: Heads?
    /// How often the bell asks for its recipients' heads (with `heads`).
    public let headPollInterval: Duration
    let state = Mutex(State())

    /// A bell that listens on `channel` of `pool`'s database once the first stream subscribes; its streams
    /// read with `read`, `readBatch` rows at most of a recipient each time, and learn each row's cursor from
    /// `cursor`. With `heads`, it also rings, every `headPollInterval` (10 s), the recipients whose newest row one
    /// of their streams has not reached, in case its announcement was lost.
    public init(
        channel: String, pool: PostgresPool, logger: Logger, readBatch: Int = 100,
        headPollInterval: Duration = .seconds(10), cursor: @escaping @Sendable (Row) -> Int64,
        read: @escaping Read, heads: Heads? = nil
    ) {
        self.channel = channel
        self.pool = pool
        self.logger = logger
        self.readBatch = readBatch
        self.headPollInterval = headPollInterval
        self.cursor = cursor
        self.read = read
        self.heads = heads
    }

    /// Streams `recipient`'s rows to `send`, each once, in cursor order: subscribes, asks `start` where to
    /// begin (asked after subscribing, so whatever commits after its answer rings) and whether rows may
    /// already wait there, sends those, then what each wake-up reads, until the bell closes (the drain);
    /// throws `CancellationError` once the calling task is cancelled (the client left). Returns at once when
    /// the bell is closed.
    public func stream(
        to recipient: String, start: () async throws -> (after: Int64, readNow: Bool),
        send: (Row) async throws -> Void
    ) async throws {
        guard let subscription = try subscribe(recipient) else { return }
        defer { unsubscribe(subscription) }
        var (last, readNow) = try await start()
        state.withLock { $0.started += 1 }
        if readNow {
            try await sendRows(to: subscription, after: &last, since: subscription.subscribedAt, send)
        }
        note(subscription, at: last)
        for await rung in subscription.rings {
            try await sendRows(to: subscription, after: &last, since: rung, send)
            note(subscription, at: last)
        }
        try Task.checkCancellation()
    }

    /// How many streams learned where to begin, since the bell was made: a test posts once they did.
    public var streamsStarted: Int { state.withLock { $0.started } }

    /// Ends every stream and stops listening; later streams return at once.
    public func close() async {
        let (listener, follower, poller, streams) = state.withLock { state in
            state.isClosed = true
            defer {
                state.listener = nil
                state.follower = nil
                state.poller = nil
                state.recipients = [:]
            }
            return (
                state.listener, state.follower, state.poller,
                state.recipients.values.flatMap(\.streams.values)
            )
        }
        streams.forEach { $0.finish() }
        poller?.cancel()
        await poller?.value
        await listener?.close()
        await follower?.value
    }

    /// Sends what `subscription`'s recipient has after `last`, as read since their ring `rung`, moving `last`.
    private func sendRows(
        to subscription: Subscription, after last: inout Int64, since rung: UInt64,
        _ send: (Row) async throws -> Void
    ) async throws {
        var batch: [Row]
        repeat {
            batch = try await rows(after: last, since: rung, for: subscription)
            for row in batch {
                try await send(row)
                last = cursor(row)
            }
        } while batch.count == readBatch
    }
}

extension RecipientBell {
    /// A `Read` for recipients the bell knows by their text and `read` knows by `Key` (a `UserID`, say): the
    /// bell's recipients parsed with `key` (one that does not parse has no rows and is left out), the rows keyed
    /// by text again.
    public static func keyed<Key: Hashable & CustomStringConvertible & Sendable>(
        by key: @escaping @Sendable (String) -> Key?,
        _ read: @escaping @Sendable (_ after: [Key: Int64], _ limit: Int) async throws -> [Key: [Row]]
    ) -> Read {
        { after, limit in
            var keyed: [Key: Int64] = [:]
            for (recipient, cursor) in after {
                if let parsed = key(recipient) { keyed[parsed] = cursor }
            }
            let rows = try await read(keyed, limit)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.key.description, $0.value) })
        }
    }

    /// A `Read` made of a read of one recipient, asked for each recipient in turn: for bells whose recipients
    /// seldom wake together (gamification's achievements and challenge results).
    public static func oneAtATime(
        _ read: @escaping @Sendable (_ recipient: String, _ after: Int64, _ limit: Int) async throws -> [Row]
    ) -> Read {
        { after, limit in
            var rows: [String: [Row]] = [:]
            for (recipient, cursor) in after { rows[recipient] = try await read(recipient, cursor, limit) }
            return rows
        }
    }
}
