@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport

extension FamilyTestStack {
    /// Records `kind` on `profile` by `actor` as the content parts do, in a transaction of its own, one
    /// millisecond after the previous one on the test clock (activity ids follow the clock).
    func record(
        _ kind: BabyActivityKind, on profile: BabyProfileID, by actor: TestUser, detail: String = "",
        subject: UUID? = UUID()
    ) async throws {
        clock.advance(seconds: 0.001)
        let entry = BabyActivityEntry(
            profile: profile, kind: kind, actor: UserID(actor.id)!, subject: subject, detail: detail)
        let seals = BabySeals(cipher: context.cipher)
        try await pool.transaction { tx in
            try await BabyActivityLog.record(entry, at: clock.now, seals: seals, in: tx)
        }
    }

    /// Gives `user` a family profile with these names, as UpdateProfile would.
    func name(_ user: TestUser, display: String = "", first: String = "", last: String = "") async throws {
        try await pool.query(
            """
            INSERT INTO family.profiles (user_id, display_name, first_name, last_name, updated_at)
            VALUES (\(user.id)::uuid, \(display), \(first), \(last), now())
            """)
    }

    /// `user`'s notifications, oldest first: kind and body.
    func notices(of user: TestUser) async throws -> [(kind: Int, title: String, body: String)] {
        try await pool.query(
            """
            SELECT kind::int, title, body, text_sealed FROM family.notifications
            WHERE recipient_id = \(user.id)::uuid ORDER BY seq
            """
        ).map { try openedNotice($0) }
    }
}
