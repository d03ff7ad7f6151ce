@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredPostgres
import KindredTestSupport
import KindredRuntime
@testable import ServiceTestSupport
import Testing

/// Posting to the in-app inbox: once per cause, whatever the retries.
@Suite struct NotificationInboxTests {
    let notice = Notice(
        kind: .cameOfAge, title: "You are 18", body: "Parental controls are off.", dedupKey: "came_of_age")

    @Test func aNoticeWithTheSameCauseIsPostedOnce() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let recipient = UserID.generate(at: Date())
            let first = try await pool.transaction { tx in
                try await NotificationInbox.post(
                    notice, to: recipient, at: Date(), sealedWith: TestDataKeys.cipher, in: tx)
            }
            let again = try await pool.transaction { tx in
                try await NotificationInbox.post(
                    notice, to: recipient, at: Date(), sealedWith: TestDataKeys.cipher, in: tx)
            }
            #expect(first && !again)
            let count = try await pool.query(
                "SELECT count(*) FROM family.notifications WHERE recipient_id = \(recipient)::uuid")[0]
                .decode(Int64.self, column: 0)
            #expect(count == 1)
        }
    }

    @Test func aPostInARolledBackTransactionLeavesNothing() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let recipient = UserID.generate(at: Date())
            struct Abandon: Error {}
            await #expect(throws: Abandon.self) {
                try await pool.transaction { tx in
                    try await NotificationInbox.post(
                        notice, to: recipient, at: Date(), sealedWith: TestDataKeys.cipher, in: tx)
                    throw Abandon()
                }
            }
            let count = try await pool.query("SELECT count(*) FROM family.notifications")[0]
                .decode(Int64.self, column: 0)
            #expect(count == 0)
        }
    }
}
