import KindredHandlers
import KindredPostgres

/// Usage that arrives after the unlock it happened in has ended: a device that was offline uploads later.
extension RewardStore {
    /// The statement that locks the child's `reward_settings` row (as every change of their points does) and
    /// reads their ended unlocks that one of `uploaded` overlaps, in the columns `charge` reads; a child without a
    /// setup has none. An upload sends it with its other reads, before it knows which sessions it will store.
    static func lateUnlocks(_ uploaded: [UsageBatch.Session], of child: UserID) -> PostgresQuery {
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
        """
    }

    /// The unlocks of `rows` (`lateUnlocks`' answer) that one of `stored` overlaps: those to charge again, once
    /// `stored` is written, as if its usage had arrived in time.
    static func lateUnlocks(_ rows: PostgresRows, overlapping stored: [UsageBatch.Session]) throws
        -> [(id: Int64, window: SpendingWindow)]
    {
        let micro = UsageSessions.microseconds
        return try unlocks(rows).filter { unlock in
            stored.contains { session in
                session.appID == unlock.window.app && micro(session.start) < micro(unlock.window.until)
                    && micro(session.end) > micro(unlock.window.from)
            }
        }
    }
}
