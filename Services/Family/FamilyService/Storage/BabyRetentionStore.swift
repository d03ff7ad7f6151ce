import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of the baby-profile retention purge.
enum BabyRetentionStore {
    /// Removes up to `limit` profiles deleted more than `years` before `now`, with everything on them (their
    /// activity and `CreateBabyProfile`'s keys here, which have no foreign key, the rest by the foreign keys'
    /// cascade); the profiles removed.
    /// Rows another purge holds are skipped, so instances never wait on each other.
    static func purge(deletedYearsBefore years: Int, now: Date, limit: Int, in tx: PostgresTransaction)
        async throws -> [BabyProfileID]
    {
        try await tx.query(
            """
            WITH doomed AS (
                SELECT profile_id FROM family.baby_profiles
                WHERE deleted_at < \(now)::timestamptz - make_interval(years => \(years)::integer)
                ORDER BY deleted_at LIMIT \(limit) FOR UPDATE SKIP LOCKED),
            activity AS (
                DELETE FROM family.baby_activity WHERE profile_id IN (SELECT profile_id FROM doomed)),
            requests AS (
                DELETE FROM family.baby_profile_requests WHERE profile_id IN (SELECT profile_id FROM doomed))
            DELETE FROM family.baby_profiles WHERE profile_id IN (SELECT profile_id FROM doomed)
            RETURNING profile_id
            """
        ).map { try $0.decode(BabyProfileID.self, column: 0) }
    }
}
