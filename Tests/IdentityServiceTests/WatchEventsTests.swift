@testable import IdentityService
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import Testing

@Suite("WatchEvents")
struct WatchEventsTests {
    /// The first `count` events after `cursor`, as `WatchEvents` sends them.
    static func watch(_ feed: EventFeed, after cursor: Int64, count: Int) async throws
        -> [Kindred_Identity_V1_Event]
    {
        var events: [Kindred_Identity_V1_Event] = []
        for try await event in feed.events(after: cursor) {
            events.append(try EventFeed.message(from: event))
            if events.count == count { break }
        }
        return events
    }

    @Test func theStreamServesAccountEventsInOrderWithCursorsFromAnyPoint()
        async throws
    {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let feed = try EventFeed(
                outbox: test.accounts.events, cipher: test.accounts.birthDates.cipher, pool: pool,
                logger: IdentityTestDatabase.logger)
            let account = try await test.registerVerified("mia_r")
            try await test.accounts.deleteAccount(account.id, password: "correct horse 1")

            let all = try await Self.watch(feed, after: 0, count: 3)
            #expect(all.map(\.type) == ["user.registered", "user.email_verified", "user.deleted"])
            #expect(all.map(\.cursor) == [1, 2, 3])
            #expect(all.allSatisfy { $0.occurredAt != nil })
            #expect(
                all[1].payload
                    == .userEmailVerified(
                        Kindred_Identity_V1_UserEmailVerified(userID: account.id.description)))
            #expect(try await Self.watch(feed, after: 2, count: 1).map(\.type) == ["user.deleted"])
            await feed.close()
        }
    }
}
