import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the revealed games (`BabyGameRotation`).
extension BabyVoteStore {
    /// A revealed game's birth date and name as its row stores them.
    struct StoredGame: Sendable {
        let profile: BabyProfileID
        let plainDate: String?
        let plainName: String?
        let sealed: [UInt8]?
    }

    /// Up to `limit` revealed games after `after` (nil: from the first), by profile id, and the profile the
    /// next batch starts after (nil at the end).
    static func revealedGames(after: BabyProfileID?, limit: Int, on db: PostgresPool) async throws
        -> (games: [StoredGame], next: BabyProfileID?)
    {
        let rows = try await db.pureRead(
            """
            SELECT profile_id, birth_date::text, baby_name, arrival_sealed FROM gamification.baby_games
            WHERE profile_id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
              AND revealed_at IS NOT NULL
            ORDER BY profile_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, String?, String?, [UInt8]?).self)
        let games = rows.map { StoredGame(profile: $0, plainDate: $1, plainName: $2, sealed: $3) }
        return (games, rows.count < limit ? nil : rows.last?.0)
    }

    /// Replaces `game`'s birth date and name with `sealed`, unless the row changed since it was read.
    static func reseal(_ game: StoredGame, as sealed: [UInt8], in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE gamification.baby_games
            SET arrival_sealed = \(sealed)::bytea, birth_date = NULL, baby_name = NULL
            WHERE profile_id = \(game.profile)::uuid AND revealed_at IS NOT NULL
              AND arrival_sealed IS NOT DISTINCT FROM \(game.sealed)::bytea
            """)
    }
}
