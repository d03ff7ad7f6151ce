import KindredHandlers
import KindredPostgres

/// Usage that arrives after the unlock it happened in has ended: a device that was offline uploads later.
extension RewardStore {
    /// Charges again each ended unlock of the child that one of `uploaded` overlaps, from its own reservation
    /// (never more), as if the usage had arrived in time. The child's `reward_settings` row is locked first,
    /// as every change of their points does; a child without a setup has nothing to charge.
    static func chargeLateUsage(
        _ uploaded: [UsageBatch.Session], of child: UserID, sessions: UsageSessions,
        in tx: PostgresTransaction
    ) async throws {
        let ended = try await tx.query(
            """
            WITH rewarded AS (
                SELECT child_id FROM gamification.reward_settings WHERE child_id = \(child)::uuid FOR UPDATE),
            uploaded AS (
                SELECT * FROM unnest(\(PostgresArray(uploaded.map(\.appID)))::text[],
                    \(PostgresArray(uploaded.map(\.start)))::timestamptz[],
                    \(PostgresArray(uploaded.map(\.end)))::timestamptz[]) AS i (app_id, started_at, ended_at))
            SELECT u.unlock_id, u.app_id, u.unlocked_at, u.locked_at, u.points_per_minute, u.points_reserved
            FROM gamification.reward_unlocks u, rewarded
            WHERE u.child_id = rewarded.child_id AND u.locked_at IS NOT NULL AND EXISTS (
                SELECT 1 FROM uploaded i
                WHERE i.app_id = u.app_id AND i.started_at < u.locked_at AND i.ended_at > u.unlocked_at)
            """)
        try await charge(ended, of: child, sessions: sessions, in: tx)
    }
}
