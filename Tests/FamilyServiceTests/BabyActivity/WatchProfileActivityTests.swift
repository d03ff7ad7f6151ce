@testable import FamilyService
import FoundationEssentials
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `WatchProfileActivity`: a member's profiles' activity in commit order, resumable from a cursor, from any
/// instance, members only, with one database read per entry per instance however many streams watch.
@Suite struct WatchProfileActivityTests {
    /// Collects `user`'s stream of `request` until it ends; the task returns how it ended.
    static func watch(
        _ stack: FamilyTestStack, _ user: TestUser, _ request: Kindred_Family_V1_WatchProfileActivityRequest
    ) -> (StreamCollector<Kindred_Family_V1_WatchProfileActivityResponse>, Task<RPCError?, Never>) {
        let collector = StreamCollector<Kindred_Family_V1_WatchProfileActivityResponse>()
        var options = user.bearer
        options.timeout = .seconds(30)
        let stream = stack.family.watchProfileActivity(request, options: options)
        let task = Task {
            await rpcError {
                for try await update in stream { collector.add(update) }
            }
        }
        return (collector, task)
    }

    @Test func aStreamSendsEachEntryInOrderAndResumesAfterACursorWithoutLossOrRepeats() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let other = try await stack.babyProfile(ownedBy: mum)
            try await stack.record(.calendarEventAdded, on: profile, by: mum, detail: "a")
            let (first, watching) = Self.watch(stack, grandma, .init(afterCursor: "0"))
            try await stack.record(.registryItemAdded, on: other, by: mum, detail: "not hers")
            for detail in ["b", "c", "d"] {
                try await stack.record(.commentAdded, on: profile, by: grandma, detail: detail)
            }
            let received = try await first.first(4)
            #expect(received.compactMap(\.activity?.detail) == ["a", "b", "c", "d"])
            let cursors = received.compactMap { Int64($0.cursor) }
            #expect(cursors == cursors.sorted() && Set(cursors).count == 4)
            watching.cancel()

            let (resumed, again) = Self.watch(stack, grandma, .init(afterCursor: received[1].cursor))
            try await stack.record(.commentAdded, on: profile, by: mum, detail: "e")
            let rest = try await resumed.first(3)
            #expect(rest.compactMap(\.activity?.detail) == ["c", "d", "e"])
            #expect(rest.first?.activity?.profileID == profile.description)
            again.cancel()
            #expect(resumed.received.count == 3)
        }
    }

    @Test func aStrangerIsToldTheProfileDoesNotExist() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let stranger = try await stack.register("stranger", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            let (_, watching) = Self.watch(stack, stranger, .init(profileIds: [profile.description]))
            let refused = await watching.value
            #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND")
            let (_, malformed) = Self.watch(stack, stranger, .init(profileIds: ["x"], afterCursor: "-1"))
            let bad = await malformed.value
            #expect(bad?.code == .invalidArgument && bad?.badFields == ["profile_ids[0]", "after_cursor"])
        }
    }

    @Test func aMemberRemovedMidStreamStopsReceivingWhileTheOthersGoOn() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let cousin = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.record(.commentAdded, on: profile, by: mum, detail: "before")
            let (hers, herStream) = Self.watch(
                stack, grandma, .init(profileIds: [profile.description], afterCursor: "0"))
            let (allHers, allHerStream) = Self.watch(stack, grandma, .init(afterCursor: "0"))
            let (mine, myStream) = Self.watch(stack, mum, .init(afterCursor: "0"))
            _ = try await hers.first(1)
            _ = try await allHers.first(1)
            _ = try await mine.first(1)
            try await stack.pool.query(
                """
                DELETE FROM family.baby_members WHERE profile_id = \(profile)::uuid AND user_id = \(grandma.id)::uuid
                """)
            try await stack.record(.commentAdded, on: profile, by: mum, detail: "after")
            try await stack.record(.commentAdded, on: cousin, by: mum, detail: "cousin")
            #expect(try await mine.first(3).compactMap(\.activity?.detail) == ["before", "after", "cousin"])
            // Her stream on all her profiles goes on with the profile she still belongs to.
            #expect(try await allHers.first(2).compactMap(\.activity?.detail) == ["before", "cousin"])
            let ended = await herStream.value
            #expect(ended?.code == .notFound && ended?.reason == "BABY_PROFILE_NOT_FOUND")
            #expect(hers.received.compactMap(\.activity?.detail) == ["before"])
            #expect(allHers.received.count == 2)
            myStream.cancel()
            allHerStream.cancel()
        }
    }

    // 50 streams on one profile, entries committed through another instance: each entry reaches every stream
    // and costs this instance at most one membership read, not one per stream, and the entries sequenced
    // together one read in all (the tail read is the feed's, one per sequencer batch per process by
    // construction).
    @Test func anEntryCostsOneReadPerInstanceHoweverManyStreamsWatch() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            let watchers = (0..<50).map { _ in UserID(UUIDv7.generateUUID(at: stack.clock.now)) }
            try await stack.pool.query(
                """
                INSERT INTO family.baby_members (profile_id, user_id, role, joined_at)
                SELECT \(profile)::uuid, u, 2, now() FROM unnest(\(PostgresArray(watchers))::uuid[]) u
                """)
            let feed = try EventFeed(
                outbox: BabyActivityFeed.outbox, cipher: TestDataKeys.cipher, pool: stack.pool,
                logger: FamilyTestDatabase.logger)
            let fanout = ActivityFanout(feed: feed, database: stack.pool, logger: FamilyTestDatabase.logger)
            let watch = BabyActivityWatch(database: stack.pool, fanout: fanout)
            let collectors = watchers.map { _ in
                StreamCollector<Kindred_Family_V1_WatchProfileActivityResponse>()
            }
            let streams = zip(watchers, collectors).map { user, collector in
                Task { try await watch.watch(user, profiles: [profile], after: nil) { collector.add($0) } }
            }
            while fanout.state.withLock({ $0.watchers.count }) < watchers.count { await Task.yield() }

            let otherInstance = PostgresPool(
                configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
            for index in 0..<5 {
                let entry = BabyActivityEntry(
                    profile: profile, kind: .commentAdded, actor: UserID(mum.id)!, subject: nil,
                    detail: "\(index)")
                try await otherInstance.transaction { tx in
                    try await BabyActivityLog.record(
                        entry, at: Date(), seals: BabySeals(cipher: TestDataKeys.cipher), in: tx)
                }
            }
            for collector in collectors {
                #expect(
                    try await collector.first(5).compactMap(\.activity?.detail) == ["0", "1", "2", "3", "4"])
            }
            // One probe a batch of entries: entries committed one after the other may be sequenced together.
            let afterSeparateWrites = fanout.membershipReads
            #expect((1...5).contains(afterSeparateWrites))

            // Entries committed together are sequenced together: one probe for the five.
            try await otherInstance.transaction { tx in
                for index in 5..<10 {
                    try await BabyActivityLog.record(
                        BabyActivityEntry(
                            profile: profile, kind: .commentAdded, actor: UserID(mum.id)!, subject: nil,
                            detail: "\(index)"),
                        at: Date(), seals: BabySeals(cipher: TestDataKeys.cipher), in: tx)
                }
            }
            for collector in collectors {
                #expect(
                    try await collector.first(10).compactMap(\.activity?.detail).suffix(5) == [
                        "5", "6", "7", "8", "9",
                    ])
            }
            #expect(fanout.membershipReads == afterSeparateWrites + 1)
            streams.forEach { $0.cancel() }
            await fanout.close()
            await feed.close()
            await otherInstance.close()
        }
    }
}

extension WatchProfileActivityTests {
    @Test func aStreamOnAllMyProfilesTakesOnAProfileTheCallerJoins() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let grandma = try await stack.register("grandma", age: 70)
            let first = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let second = try await stack.babyProfile(ownedBy: aunt)
            try await stack.record(.commentAdded, on: first, by: mum, detail: "first")
            let (mine, watching) = Self.watch(stack, grandma, .init(afterCursor: "0"))
            _ = try await mine.first(1)
            try await stack.pool.query(
                """
                INSERT INTO family.baby_members (profile_id, user_id, role, joined_at)
                VALUES (\(second)::uuid, \(grandma.id)::uuid, 2, now())
                """)
            try await stack.record(
                .memberJoined, on: second, by: grandma, detail: "", subject: UUID(uuidString: grandma.id))
            try await stack.record(.calendarEventAdded, on: second, by: aunt, detail: "second")
            let received = try await mine.first(3)
            #expect(
                received.compactMap(\.activity?.kind) == [.commentAdded, .memberJoined, .calendarEventAdded])
            #expect(received.last?.activity?.profileID == second.description)
            watching.cancel()
        }
    }
}
