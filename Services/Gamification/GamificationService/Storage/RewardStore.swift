import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.reward_settings`, `reward_apps` and `reward_unlocks` (migration 14). Every change of a child's
/// points first locks the child's `reward_settings` row, so unlocks and locks of one child take turns: each
/// sees the balance the one before it left, and two unlocks at once cannot both spend the same points.
enum RewardStore {
    /// The child's setup; nil before a guardian's first.
    static func setup(of child: UserID, on db: some StatementRunner) async throws -> RewardSetupDraft? {
        let rows = try await db.pureRead(
            """
            SELECT s.points_per_learning_minute, s.points_per_reward_minute, s.updated_at, a.app_id, a.kind
            FROM gamification.reward_settings s
            LEFT JOIN gamification.reward_apps a ON a.child_id = s.child_id
            WHERE s.child_id = \(child)::uuid ORDER BY a.kind, a.app_id
            """)
        let decoded = try rows.decode((Int32, Int32, Date, String?, Int32?).self)
        guard let (learning, reward, updatedAt, _, _) = decoded.first else { return nil }
        let apps = decoded.compactMap { _, _, _, app, kind -> RewardSetupDraft.App? in
            guard let app, let kind, let known = RewardSetupDraft.Kind(rawValue: kind) else { return nil }
            return .init(id: app, kind: known)
        }
        return RewardSetupDraft(
            apps: apps, pointsPerLearningMinute: learning, pointsPerRewardMinute: reward, updatedAt: updatedAt
        )
    }

    /// Writes `draft` as the child's whole setup and locks the child's row. An app whose kind changes (or that
    /// is new) counts from the child's local day now; one that stays keeps its day.
    static func replace(
        _ draft: RewardSetupDraft, of child: UserID, by guardian: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            INSERT INTO gamification.reward_settings AS s
                (child_id, points_per_learning_minute, points_per_reward_minute, updated_by, updated_at)
            VALUES (\(child)::uuid, \(draft.pointsPerLearningMinute), \(draft.pointsPerRewardMinute),
                \(guardian)::uuid, \(now))
            ON CONFLICT (child_id) DO UPDATE SET
                points_per_learning_minute = excluded.points_per_learning_minute,
                points_per_reward_minute = excluded.points_per_reward_minute,
                updated_by = excluded.updated_by, updated_at = excluded.updated_at
            """)
        let ids = PostgresArray(draft.apps.map(\.id))
        let kinds = PostgresArray(draft.apps.map { String($0.kind.rawValue) })
        try await tx.query(
            """
            DELETE FROM gamification.reward_apps
            WHERE child_id = \(child)::uuid AND app_id <> ALL (\(ids)::text[])
            """)
        try await tx.query(
            """
            INSERT INTO gamification.reward_apps AS a (child_id, app_id, kind, since_day)
            SELECT \(child)::uuid, app.id, app.kind::smallint, (\(now)::timestamptz AT TIME ZONE coalesce(
                (SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(child)::uuid), 'UTC'))::date
            FROM unnest(\(ids)::text[], \(kinds)::text[]) AS app (id, kind)
            ON CONFLICT (child_id, app_id) DO UPDATE SET kind = excluded.kind,
                since_day = CASE WHEN a.kind = excluded.kind THEN a.since_day ELSE excluded.since_day END
            """)
    }

    /// The child's rates, their row locked for the rest of `tx`; nil before a setup.
    static func lockRates(of child: UserID, in tx: PostgresTransaction) async throws
        -> (learning: Int32, reward: Int32)?
    {
        let rows = try await tx.query(
            """
            SELECT points_per_learning_minute, points_per_reward_minute FROM gamification.reward_settings
            WHERE child_id = \(child)::uuid FOR UPDATE
            """)
        guard !rows.isEmpty else { return nil }
        let (learning, reward) = try rows[0].decode((Int32, Int32).self)
        return (learning, reward)
    }

    /// Ends, as of their own end or `now`, the child's unlocks that ran out, the one of `app`, and those of apps
    /// no longer reward apps: each spends what its minutes used and returns the rest.
    static func settle(
        _ child: UserID, app: String?, at now: Date, sessions: UsageSessions, in tx: PostgresTransaction
    ) async throws {
        let due = try await tx.query(
            """
            SELECT u.unlock_id, u.app_id, u.unlocked_at, least(u.ends_at, \(now)), u.points_per_minute,
                u.points_reserved
            FROM gamification.reward_unlocks u
            WHERE u.child_id = \(child)::uuid AND u.locked_at IS NULL AND (
                u.ends_at <= \(now) OR u.app_id = \(app) OR NOT EXISTS (
                    SELECT 1 FROM gamification.reward_apps a
                    WHERE a.child_id = u.child_id AND a.app_id = u.app_id AND a.kind = 2))
            """)
        try await charge(due, of: child, sessions: sessions, in: tx)
    }

    /// Whether request `requestID` already unlocked one of the child's apps.
    static func unlocked(_ child: UserID, by requestID: String, in tx: PostgresTransaction) async throws
        -> Bool
    {
        try await !tx.query(
            """
            SELECT 1 FROM gamification.reward_unlocks
            WHERE child_id = \(child)::uuid AND request_id = \(requestID)
            """
        ).isEmpty
    }

    /// Starts an unlock of `app` for `minutes` as request `requestID`, reserving `points`; false when one is
    /// running already.
    static func unlock(
        _ app: String, of child: UserID, minutes: Int32, perMinute: Int32, requestID: String, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        let added = try await tx.query(
            """
            INSERT INTO gamification.reward_unlocks
                (child_id, app_id, unlocked_at, ends_at, points_per_minute, points_reserved, request_id)
            VALUES (\(child)::uuid, \(app), \(now), \(now)::timestamptz + make_interval(mins => \(minutes)),
                \(perMinute), \(Int64(minutes) * Int64(perMinute)), \(requestID))
            ON CONFLICT (child_id, app_id) WHERE locked_at IS NULL DO NOTHING
            """)
        return added.affectedRows == 1
    }

    /// Deletes everything kept about `child`'s rewards (their account was deleted).
    static func deleteAll(of child: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM gamification.reward_settings WHERE child_id = \(child)::uuid")
    }
}
