import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.erased_accounts`: the accounts identity deleted lately, for the usage retention job.
enum ErasedAccountStore {
    /// Remembers that `user`'s rows were erased at `now`; a replayed event keeps the first time.
    static func remember(_ user: UserID, at now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            INSERT INTO gamification.erased_accounts (user_id, erased_at) VALUES (\(user)::uuid, \(now))
            ON CONFLICT (user_id) DO NOTHING
            """)
    }

    /// Every account remembered.
    static func all(in tx: PostgresTransaction) async throws -> [UserID] {
        try await tx.query("SELECT user_id FROM gamification.erased_accounts").compactMap {
            UserID(try $0.decode(String.self, column: 0))
        }
    }

    /// Forgets the accounts erased more than `days` before `now`; how many.
    static func forget(erasedDaysBefore days: Int, now: Date, in tx: PostgresTransaction) async throws -> Int
    {
        try await tx.query(
            """
            DELETE FROM gamification.erased_accounts
            WHERE erased_at < \(now)::timestamptz - make_interval(days => \(days)::integer)
            """
        ).affectedRows
    }
}
