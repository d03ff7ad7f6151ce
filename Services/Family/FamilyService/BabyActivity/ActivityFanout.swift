import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredThreads
import Logging
import Synchronization

/// The live side of baby-profile activity in this process: ONE reader follows the activity feed and hands
/// each entry to every local stream watching its profile, so a post costs the same database work (the
/// feed's one tail read, and one membership probe when someone here watches the profile) with one stream or
/// ten thousand. Streams register here (`subscribe`) and read their entries from their subscription.
final class ActivityFanout: Sendable {
    /// An entry for one stream, with its position on the feed.
    struct Delivery: Sendable {
        let cursor: Int64
        let activity: Kindred_Family_V1_BabyActivity
    }

    /// What a stream gets when it registers: every entry of its profiles after `position` arrives on
    /// `deliveries`, in cursor order; entries up to `position` it reads from the feed itself.
    struct Subscription: Sendable {
        let id: UInt64
        let position: Int64
        let deliveries: AsyncThrowingStream<Delivery, any Error>
    }

    /// Between attempts at an unreachable PostgreSQL: 100 ms doubling to 5 s.
    static var retry: Backoff { Backoff(initial: .milliseconds(100), ceiling: .seconds(5)) }

    /// Entries a stream may have waiting before it is ended as too slow (it resumes from its cursor).
    static let streamBuffer = 4_096

    let feed: EventFeed
    let database: PostgresPool
    let logger: Logger
    let state = Mutex(FanoutState())
    /// Reads the feed's newest cursor once, where the reader starts.
    private let start: Task<Int64, Never>
    private let reader: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Starts the reader on `feed`.
    init(feed: EventFeed, database: PostgresPool, logger: Logger) {
        self.feed = feed
        self.database = database
        self.logger = logger
        start = Task(executorPreference: database.backgroundExecutor()) {
            var backoff = Self.retry
            while !Task.isCancelled {
                if let newest = try? await feed.newestCursor() { return newest }
                try? await Task.sleep(for: backoff.next())
            }
            return 0
        }
        let started = Task(executorPreference: database.backgroundExecutor()) { [self] in await follow() }
        reader.withLock { $0 = started }
    }

    /// The position every entry after which reaches the local streams, once the reader has started.
    func position() async -> Int64 {
        let first = await start.value
        return state.withLock { $0.position ?? first }
    }

    /// The database reads this process made to check who still belongs (one per entry watched here, whatever
    /// the number of streams): what the fan-out test counts.
    var membershipReads: Int { state.withLock { $0.membershipReads } }

    /// Ends every stream and stops the reader.
    func close() async {
        let running = reader.withLock { $0 }
        start.cancel()
        running?.cancel()
        await running?.value
        state.withLock { $0.closeAll() }
    }

    /// Reads each new entry of the feed once and hands it to the streams watching its profile; after an
    /// unexpected error it carries on after the last entry it handed out.
    private func follow() async {
        let first = await start.value
        state.withLock { $0.position = first }
        var backoff = Self.retry
        while !Task.isCancelled {
            do {
                let position = state.withLock { $0.position ?? first }
                var events = feed.events(after: position).makeAsyncIterator()
                while let batch = try await events.nextBatch() {
                    try await deliver(batch)
                    backoff = Self.retry
                }
                break
            } catch is CancellationError {
                break
            } catch {
                logger.error("baby activity fan-out failed; retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: backoff.next())
            }
        }
        state.withLock { $0.closeAll() }
    }

    /// Hands each entry of `events` (one read of the feed: those sequenced together) to its profile's streams
    /// whose users still belong to it; the others stop receiving it. One membership probe for the whole batch.
    private func deliver(_ events: [OutboxEvent]) async throws {
        let entries = events.map { event -> (BabyProfileID, Delivery)? in
            guard let activity = try? Kindred_Family_V1_BabyActivity(serializedBytes: event.payload),
                let profile = BabyProfileID(activity.profileID)
            else {
                logger.error("unreadable baby activity on the feed", metadata: ["cursor": "\(event.cursor)"])
                return nil
            }
            return (profile, Delivery(cursor: event.cursor, activity: activity))
        }
        let profiles = Set(entries.compactMap { $0?.0 })
        let watchers = state.withLock { state in
            var watched: [BabyProfileID: [UInt64: UserID]] = [:]
            for profile in profiles {
                let users = state.users(watching: profile)
                if !users.isEmpty { watched[profile] = users }
            }
            return watched
        }
        let members = watchers.isEmpty ? [:] : try await stillMembers(watchers.mapValues { Set($0.values) })
        state.withLock { state in
            for (event, entry) in zip(events, entries) {
                guard let (profile, delivery) = entry else {
                    state.position = event.cursor
                    continue
                }
                state.deliver(
                    delivery, to: profile, checked: watchers[profile] ?? [:], members: members[profile] ?? [])
            }
        }
    }

    /// Which of the watching users belong to their profile now: one probe for every profile, retried while
    /// PostgreSQL is away.
    private func stillMembers(_ watchers: [BabyProfileID: Set<UserID>]) async throws
        -> [BabyProfileID: Set<UserID>]
    {
        var backoff = Self.retry
        while true {
            try Task.checkCancellation()
            do {
                state.withLock { $0.membershipReads += 1 }
                return try await BabyMemberStore.members(among: watchers, on: database)
            } catch let error as PostgresError where error.kind == .connectionFailure {
                try await Task.sleep(for: backoff.next())
            }
        }
    }
}

extension ActivityFanout {
    /// Registers a stream of `user` on `profiles` (membership already checked), or on every profile of theirs
    /// (`allOfUser`: those they join later too): entries after the returned position arrive on its
    /// deliveries. Deliveries end when the process drains.
    func subscribe(_ user: UserID, to profiles: Set<BabyProfileID>, allOfUser: Bool) async -> Subscription {
        let first = await position()
        let (deliveries, continuation) = AsyncThrowingStream.makeStream(
            of: Delivery.self, bufferingPolicy: .bufferingOldest(Self.streamBuffer))
        let registered = state.withLock { state in
            state.add(user: user, profiles: profiles, allOfUser: allOfUser, continuation: continuation).map {
                ($0, state.position ?? first)
            }
        }
        guard let (id, position) = registered else {
            continuation.finish()
            return Subscription(id: 0, position: first, deliveries: deliveries)
        }
        return Subscription(id: id, position: position, deliveries: deliveries)
    }

    /// Forgets a stream's subscription (the stream ended).
    func unsubscribe(_ subscription: Subscription) {
        state.withLock { $0.remove(subscription.id) }
    }
}
