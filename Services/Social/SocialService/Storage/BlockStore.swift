import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `social.blocks`. Blocking runs under `GraphStore.lockPair`.
enum BlockStore {
    /// `blocker` blocks `blocked` from `now` on, in one statement: every friendship row, pending request and
    /// follow between the two, either way, goes, and the block is added (a block already there keeps its time).
    static func block(_ blocker: UserID, _ blocked: UserID, at now: Date, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            WITH friendships AS (
                DELETE FROM social.friendships
                WHERE (user_id = \(blocker)::uuid AND friend_id = \(blocked)::uuid)
                   OR (user_id = \(blocked)::uuid AND friend_id = \(blocker)::uuid)
            ), requests AS (
                DELETE FROM social.friend_requests
                WHERE (sender_id = \(blocker)::uuid AND recipient_id = \(blocked)::uuid)
                   OR (sender_id = \(blocked)::uuid AND recipient_id = \(blocker)::uuid)
            ), follows AS (
                DELETE FROM social.follows
                WHERE (follower_id = \(blocker)::uuid AND followee_id = \(blocked)::uuid)
                   OR (follower_id = \(blocked)::uuid AND followee_id = \(blocker)::uuid)
            )
            INSERT INTO social.blocks (blocker_id, blocked_id, since)
            VALUES (\(blocker)::uuid, \(blocked)::uuid, \(now))
            ON CONFLICT (blocker_id, blocked_id) DO NOTHING
            """)
    }

    static func unblock(_ blocker: UserID, _ blocked: UserID, on db: some StatementRunner) async throws {
        try await db.query(
            "DELETE FROM social.blocks WHERE blocker_id = \(blocker)::uuid AND blocked_id = \(blocked)::uuid")
    }
}
