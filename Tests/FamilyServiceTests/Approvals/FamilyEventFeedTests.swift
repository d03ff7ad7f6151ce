@testable import FamilyService
import KindredEvents
import KindredMessages
import KindredPostgres
import Testing

/// The family outbox as `WatchEvents` serves it: a decision becomes `approval.decided` with its cursor.
@Suite struct FamilyEventFeedTests {
    @Test(.timeLimit(.minutes(1))) func decisionsAreServedInOrderWithCursorsFromAnyPoint() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (ApprovalCallers.minor(), ApprovalCallers.adult())
            try await test.link(guardian, to: minor)
            let feed = try EventFeed(outbox: FamilyEvents.outbox, pool: pool, logger: FamilyTestDatabase.logger)
            let approved = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-1").id, approve: true, as: guardian)
            let denied = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-2").id, approve: false, as: guardian)

            let all = try await Self.watch(feed, after: 0, count: 2)
            #expect(all.map(\.type) == ["approval.decided", "approval.decided"])
            #expect(all.map(\.cursor) == [1, 2])
            #expect(all.allSatisfy { $0.occurredAt != nil })
            #expect(all.map(\.payload) == [approved, denied].map { .approvalDecided(.init(approval: $0.proto)) })
            #expect(try await Self.watch(feed, after: 1, count: 1).map(\.cursor) == [2])
            await feed.close()
        }
    }

    /// The first `count` events after `cursor`, as `WatchEvents` sends them.
    static func watch(_ feed: EventFeed, after cursor: Int64, count: Int) async throws -> [Kindred_Family_V1_Event] {
        var events: [Kindred_Family_V1_Event] = []
        for try await event in feed.events(after: cursor) {
            events.append(try FamilyEvents.message(from: event))
            if events.count == count { break }
        }
        return events
    }
}
