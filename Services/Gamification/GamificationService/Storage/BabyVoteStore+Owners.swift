import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The owners' control of the secret vote before the arrival: ending it, resetting it. Neither reads a vote.
extension BabyVoteStore {
    /// Whether `profile`'s votes are revealed; false for a profile nobody voted on.
    static func isRevealed(_ profile: BabyProfileID, on db: some StatementRunner) async throws -> Bool {
        try await !db.pureRead(
            """
            SELECT 1 FROM gamification.baby_games WHERE profile_id = \(profile) AND revealed_at IS NOT NULL
            """
        ).isEmpty
    }

    /// Closes `profile`'s vote to new votes, keeping the votes cast (secret until the reveal); an ended vote
    /// keeps its first end. False, changing nothing, once the votes are revealed. Locks the game's row.
    static func end(_ profile: BabyProfileID, at now: Date, in tx: PostgresTransaction) async throws -> Bool {
        try await tx.query(
            """
            INSERT INTO gamification.baby_games (profile_id, ended_at) VALUES (\(profile), \(now))
            ON CONFLICT (profile_id) DO UPDATE
            SET ended_at = coalesce(gamification.baby_games.ended_at, excluded.ended_at)
            WHERE gamification.baby_games.revealed_at IS NULL
            RETURNING 1
            """
        ).count == 1
    }

    /// Deletes every vote on `profile`, unread, and opens voting again. False, changing nothing, once the
    /// votes are revealed. The game's row is locked first, so a vote cast at the same moment lands before
    /// the reset (and is deleted) or after it.
    static func reset(_ profile: BabyProfileID, in tx: PostgresTransaction) async throws -> Bool {
        let open = try await tx.query(
            """
            INSERT INTO gamification.baby_games (profile_id) VALUES (\(profile))
            ON CONFLICT (profile_id) DO UPDATE SET ended_at = NULL
            WHERE gamification.baby_games.revealed_at IS NULL
            RETURNING 1
            """)
        guard open.count == 1 else { return false }
        try await tx.query("DELETE FROM gamification.baby_votes WHERE profile_id = \(profile)")
        return true
    }
}
