public import KindredAuth
public import KindredPostgres
public import Logging
internal import KindredThreads
internal import Synchronization

/// Serves one outbox in this process: numbers committed events (the sequencer), prunes old ones, and
/// streams them to any number of watchers through one LISTEN connection. Every instance of a service runs
/// one; they share the work safely. Call `close()` on shutdown, before closing the pool.
public final class EventFeed: Sendable {
    /// How the feed polls and how long it keeps events.
    public struct Options: Sendable {
        /// How often each instance looks for committed events without a cursor while none come: at most this
        /// long passes between a quiet feed's commit and its event reaching the streams (writers do not NOTIFY,
        /// see the README).
        public var pollInterval: Duration
        /// How soon the next round runs after one that numbered events, when more are likely coming: at most
        /// this long passes between a busy feed's commit and its event reaching the streams. The same as
        /// `pollInterval` unless a feed that people watch live asks for less: each round is a transaction.
        public var burstInterval: Duration
        /// Sequenced events older than this are deleted; a consumer offline longer must resync.
        public var retention: Duration
        /// How often an instance prunes.
        public var pruneInterval: Duration

        /// Polls every 100 ms (and as often while events come, unless `burstInterval` says less), keeps events
        /// 30 days, prunes hourly.
        public init(
            pollInterval: Duration = .milliseconds(100), burstInterval: Duration? = nil,
            retention: Duration = .seconds(30 * 86_400), pruneInterval: Duration = .seconds(3_600)
        ) {
            self.pollInterval = pollInterval
            self.burstInterval = min(burstInterval ?? pollInterval, pollInterval)
            self.retention = retention
            self.pruneInterval = pruneInterval
        }
    }

    let outbox: EventOutbox
    /// The service's data keys, which open the payloads.
    let cipher: FieldCipher
    let pool: PostgresPool
    let logger: Logger
    let options: Options
    let tail = EventTail(capacity: 1_024)
    /// Events read from the table per query, by a stream catching up.
    let pageSize = 256
    private let listener: PostgresListener
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Starts sequencing, pruning and listening for `outbox`, on `pool`'s database; its payloads open with
    /// `cipher`, the keys the service seals them with.
    public init(
        outbox: EventOutbox, cipher: FieldCipher, pool: PostgresPool, logger: Logger,
        options: Options = Options()
    ) throws(PostgresError) {
        self.outbox = outbox
        self.cipher = cipher
        self.pool = pool
        self.logger = logger
        self.options = options
        self.listener = try PostgresListener(
            configuration: pool.configuration, channels: [outbox.channel], logger: logger)
        let started = [
            Task(executorPreference: pool.backgroundExecutor()) { [self] in await runSequencer() },
            Task(executorPreference: pool.backgroundExecutor()) { [self] in await followNotifications() },
        ]
        tasks.withLock { $0 = started }
        registerMetrics()
    }

    /// The events after `cursor` (0: from the first), then new ones as they are sequenced. See `EventStream`.
    public func events(after cursor: Int64) -> EventStream {
        EventStream(feed: self, after: cursor)
    }

    /// The newest cursor given so far (0 before the first): where a reader that wants only new events starts.
    public func newestCursor() async throws -> Int64 {
        try await outbox.newestCursor(pool)
    }

    /// Stops sequencing and listening and ends every stream; returns when the background work has stopped.
    public func close() async {
        let running = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        tail.close()
        running.forEach { $0.cancel() }
        for task in running { await task.value }
        await listener.close()
    }

    /// Keeps the tail current: reads what notifications announce past the tail, and everything after a
    /// (re)connection, when notifications may have been missed.
    private func followNotifications() async {
        for await notification in listener.notifications {
            if case .notifications(_, let payloads) = notification, let newest = tail.newest,
                payloads.allSatisfy({ Int64($0).map { $0 <= newest } ?? false })
            {
                continue
            }
            await refreshTail()
        }
    }

    /// Reads the events after the tail's newest into it, retrying until it succeeds or the feed closes.
    private func refreshTail() async {
        var backoff = Backoff.events
        while !Task.isCancelled {
            do {
                guard let newest = tail.newest else {
                    return tail.restart(at: try await outbox.newestCursor(pool))
                }
                let events = try await outbox.events(
                    after: newest, limit: tail.capacity, opening: cipher, pool)
                guard events.count < tail.capacity else {
                    // Far behind (a long outage): streams that are behind too read the table.
                    return tail.restart(at: try await outbox.newestCursor(pool))
                }
                return tail.append(events)
            } catch {
                logger.debug("event tail refresh failed", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: backoff.next())
            }
        }
    }
}
