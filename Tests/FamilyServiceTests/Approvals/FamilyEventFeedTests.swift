@testable import FamilyService
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The family outbox as `WatchEvents` serves it: a decision becomes `approval.decided` with its cursor.
@Suite struct FamilyEventFeedTests {
    @Test func decisionsAreServedInOrderWithCursorsFromAnyPoint() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let feed = try EventFeed(
                outbox: FamilyEvents.outbox, cipher: TestDataKeys.cipher, pool: pool,
                logger: FamilyTestDatabase.logger)
            let approved = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-1").id, approve: true, as: guardian)
            let denied = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-2").id, approve: false, as: guardian)

            let all = try await Self.watch(feed, after: 0, count: 2)
            #expect(all.map(\.type) == ["approval.decided", "approval.decided"])
            #expect(all.map(\.cursor) == [1, 2])
            #expect(all.allSatisfy { $0.occurredAt != nil })
            #expect(
                all.map(\.payload) == [approved, denied].map { .approvalDecided(.init(approval: $0.proto)) })
            #expect(try await Self.watch(feed, after: 1, count: 1).map(\.cursor) == [2])
            await feed.close()
        }
    }

    @Test func aConsumerBehindPrunedEventsIsToldToResync() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            // An instance that keeps nothing: it numbers the three events and prunes all but the newest.
            let forgetful = try EventFeed(
                outbox: FamilyEvents.outbox, cipher: TestDataKeys.cipher, pool: pool,
                logger: FamilyTestDatabase.logger,
                options: EventFeed.Options(
                    pollInterval: .milliseconds(20), retention: .zero,
                    pruneInterval: .milliseconds(20)))
            for subject in ["e-1", "e-2", "e-3"] {
                _ = try await test.approvals.decide(
                    try await test.ask(minor, subject: subject).id, approve: true, as: guardian)
            }
            try await eventually("the feed numbered the three events") { try await Self.cursors(pool) == [3] }
            await forgetful.close()

            let feed = try EventFeed(
                outbox: FamilyEvents.outbox, cipher: TestDataKeys.cipher, pool: pool,
                logger: FamilyTestDatabase.logger)
            do {
                _ = try await Self.watch(feed, after: 1, count: 1)
                Issue.record("a consumer behind the pruned events was served")
            } catch let pruned as EventsPruned {
                #expect(pruned.oldestRetained == 3)
            }
            #expect(try await Self.watch(feed, after: 0, count: 1).map(\.cursor) == [3])
            await feed.close()
        }
    }

    /// The cursors of the events the outbox holds (0: not numbered yet).
    static func cursors(_ pool: PostgresPool) async throws -> [Int64] {
        try await pool.query("SELECT coalesce(cursor, 0) FROM family.event_outbox ORDER BY id").decode(
            Int64.self)
    }

    /// The first `count` events after `cursor`, as `WatchEvents` sends them.
    static func watch(_ feed: EventFeed, after cursor: Int64, count: Int) async throws
        -> [Kindred_Family_V1_Event]
    {
        var events: [Kindred_Family_V1_Event] = []
        struct Enough: Error {}
        do {
            for try await event in feed.events(after: cursor) {
                events.append(try EventFeed.message(from: event))
                if events.count == count { throw Enough() }
            }
        } catch is Enough {}
        return events
    }
}
