import KindredAuth
import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes: usage sessions not yet sealed under the current data key.
extension UsageStore {
    /// A row's primary key, where a rotation batch starts after.
    struct SessionKey: Sendable {
        let user: UserID
        let clientSessionID: String
    }

    /// Up to `limit` sessions after `after` (in primary-key order) that are plaintext or sealed under a key
    /// other than `cipher`'s current one, with their users, and the key the next batch starts after (nil at the end).
    static func staleSessions(
        after: SessionKey?, cipher: FieldCipher, limit: Int, on db: some StatementRunner
    )
        async throws -> (sessions: [(user: UserID, stored: UsageSessions.Stored)], next: SessionKey?)
    {
        let rows = try await db.pureRead(
            """
            SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed, user_id
            FROM gamification.usage_sessions
            WHERE (user_id, client_session_id) > (
                coalesce(\(after?.user)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.clientSessionID)::text, ''))
            ORDER BY user_id, client_session_id LIMIT \(limit)
            """)
        let sessions = try rows.map {
            (user: try $0.decode(UserID.self, column: 6), stored: try storedSession($0))
        }
        let stale = sessions.filter { !cipher.isCurrent($0.stored.sealed) }
        let next =
            rows.count < limit
            ? nil
            : sessions.last.map {
                SessionKey(user: $0.user, clientSessionID: $0.stored.clientSessionID)
            }
        return (stale, next)
    }

    /// Replaces `stored`'s row with `sealed`, unless the row changed since it was read (an upload replaced it,
    /// or a rotation running twice).
    static func reseal(
        _ stored: UsageSessions.Stored, of user: UserID, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE gamification.usage_sessions
            SET session_sealed = \(sealed)::bytea, app_id = NULL, started_at = NULL, ended_at = NULL,
                updated_at = NULL
            WHERE user_id = \(user)::uuid AND client_session_id = \(stored.clientSessionID)
                AND session_sealed IS NOT DISTINCT FROM \(stored.sealed)::bytea
            """)
    }
}
