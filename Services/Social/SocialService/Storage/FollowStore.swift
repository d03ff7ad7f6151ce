import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `social.follows`: one row per follower and followee. Following runs under `GraphStore.lockPair`.
enum FollowStore {
    /// `follower` follows `followee` from `now` on; a follow already there keeps its time.
    static func follow(_ follower: UserID, _ followee: UserID, at now: Date, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            INSERT INTO social.follows (follower_id, followee_id, since)
            VALUES (\(follower)::uuid, \(followee)::uuid, \(now))
            ON CONFLICT (follower_id, followee_id) DO NOTHING
            """)
    }

    static func unfollow(_ follower: UserID, _ followee: UserID, on db: some StatementRunner) async throws {
        try await db.query(
            "DELETE FROM social.follows WHERE follower_id = \(follower)::uuid AND followee_id = \(followee)::uuid"
        )
    }

    /// Which of `candidates` `follower` follows: one primary-key range, probed for the whole array at once.
    static func followed(by follower: UserID, among candidates: [UserID], on db: some StatementRunner)
        async throws
        -> Set<UserID>
    {
        let rows = try await db.pureRead(
            """
            SELECT followee_id::text FROM social.follows
            WHERE follower_id = \(follower)::uuid AND followee_id = ANY(\(PostgresArray(candidates))::uuid[])
            """)
        return Set(try rows.map { try $0.decode(UserID.self) })
    }
}
