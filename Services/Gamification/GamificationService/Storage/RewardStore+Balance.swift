import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// What a child's points are made of, read without writing: each marked app's time since it was marked, and
/// each unlock with what it spent (so far, for a running one).
extension RewardStore {
    /// Each app of the setup with its seconds since its day and its whole minutes, counted per local day (what
    /// a learning app earns at the child's rate).
    static func appTotals(of child: UserID, on db: some StatementRunner) async throws -> [RewardBalance
        .AppTime]
    {
        let rows = try await db.pureRead(
            """
            SELECT a.app_id, a.kind::integer, coalesce(sum(d.seconds), 0)::bigint,
                coalesce(sum(d.seconds / 60), 0)::bigint
            FROM gamification.reward_apps a
            LEFT JOIN gamification.usage_daily d
                ON d.user_id = a.child_id AND d.app_id = a.app_id AND d.local_date >= a.since_day
            WHERE a.child_id = \(child)::uuid
            GROUP BY a.app_id, a.kind
            """)
        return try rows.compactMap { row in
            let (app, kind, seconds, minutes) = try row.decode((String, Int32, Int64, Int64).self)
            guard let kind = RewardSetupDraft.Kind(rawValue: kind) else { return nil }
            return .init(app: app, kind: kind, seconds: seconds, earnedMinutes: minutes)
        }
    }

    /// Every unlock of the child: what it reserved and spent, and whether it still runs at `now` (an unlock
    /// past its end, not yet settled, counts as ended at its end; what an unsettled one spent is counted now).
    static func unlocks(of child: UserID, at now: Date, sessions: UsageSessions, on db: some StatementRunner)
        async throws -> [RewardBalance.Unlock]
    {
        let rows = try await db.pureRead(
            """
            SELECT app_id, ends_at, locked_at IS NULL AND ends_at > \(now), points_reserved, points_spent,
                unlocked_at, least(ends_at, \(now)), points_per_minute
            FROM gamification.reward_unlocks WHERE child_id = \(child)::uuid
            """)
        let unlocks = try rows.map {
            try $0.decode((String, Date, Bool, Int64, Int64?, Date, Date, Int32).self)
        }
        let unsettled = unlocks.filter { $0.4 == nil }.map {
            SpendingWindow(app: $0.0, from: $0.5, until: $0.6, pointsPerMinute: $0.7, reserved: $0.3)
        }
        var counted = try await pointsUsed(in: unsettled, of: child, sessions: sessions, on: db)
            .makeIterator()
        return unlocks.map { app, endsAt, running, reserved, spent, _, _, _ in
            .init(
                app: app, endsAt: endsAt, running: running, reserved: reserved,
                spent: spent ?? counted.next()!)
        }
    }
}
