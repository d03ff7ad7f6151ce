import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// What an unlock spends: each started minute of its app's sessions inside its window, at most what it
/// reserved. The sessions' apps and times are sealed, so this is counted here from the opened sessions rather
/// than in SQL; the child's rows are narrowed by the UTC day they started on.
extension RewardStore {
    /// An unlock's window [from, until) of one app, at its rate and reservation.
    struct SpendingWindow: Sendable {
        let app: String
        let from: Date
        let until: Date
        let pointsPerMinute: Int32
        let reserved: Int64

        /// The points `sessions` (the child's) spend in this window.
        func spent(by sessions: [UsageBatch.Session]) -> Int64 {
            let micro = UsageSessions.microseconds
            let inside = sessions.lazy.filter { $0.appID == app }.reduce(Int64(0)) { total, session in
                total + max(0, min(micro(session.end), micro(until)) - max(micro(session.start), micro(from)))
            }
            let startedMinutes = (inside + 59_999_999) / 60_000_000
            return min(reserved, Int64(pointsPerMinute) * startedMinutes)
        }
    }

    /// What each of `windows` spends of `child`'s usage, in order. Each window reads its own sessions: a
    /// session lasts at most 24 hours, and an unlock at most a day, so a read spans about three UTC days
    /// however far apart the windows are.
    static func pointsUsed(
        in windows: [SpendingWindow], of child: UserID, sessions: UsageSessions, on db: some StatementRunner
    ) async throws -> [Int64] {
        var spent: [Int64] = []
        for window in windows {
            let used = try await UsageStore.sessions(
                of: child, startingFrom: window.from.addingTimeInterval(-UsageBatch.longest),
                until: window.until,
                sealing: sessions, on: db)
            spent.append(window.spent(by: used))
        }
        return spent
    }

    /// Records what each unlock of `rows` spends (columns: unlock_id, app_id, unlocked_at, the window's end,
    /// points_per_minute, points_reserved), locking one not yet locked as of its window's end.
    static func charge(
        _ rows: PostgresRows, of child: UserID, sessions: UsageSessions, in tx: PostgresTransaction
    ) async throws {
        try await charge(try unlocks(rows), of: child, sessions: sessions, in: tx)
    }

    /// The unlocks of `rows` (columns as `charge` reads them), each with its window.
    static func unlocks(_ rows: PostgresRows) throws -> [(id: Int64, window: SpendingWindow)] {
        try rows.map { row in
            let (id, app, from, until, rate, reserved) = try row.decode(
                (Int64, String, Date, Date, Int32, Int64).self)
            return (
                id: id,
                window: SpendingWindow(
                    app: app, from: from, until: until, pointsPerMinute: rate, reserved: reserved)
            )
        }
    }

    /// Records what each of `due` spends, as `charge(_:of:sessions:in:)` does for rows.
    static func charge(
        _ due: [(id: Int64, window: SpendingWindow)], of child: UserID, sessions: UsageSessions,
        in tx: PostgresTransaction
    ) async throws {
        guard !due.isEmpty else { return }
        let spent = try await pointsUsed(in: due.map { $0.window }, of: child, sessions: sessions, on: tx)
        try await tx.query(
            """
            UPDATE gamification.reward_unlocks u
            SET locked_at = coalesce(u.locked_at, c.until), points_spent = c.spent
            FROM unnest(\(PostgresArray(due.map { $0.id }))::bigint[],
                \(PostgresArray(due.map { $0.window.until }))::timestamptz[], \(PostgresArray(spent))::bigint[])
                AS c (unlock_id, until, spent)
            WHERE u.child_id = \(child)::uuid AND u.unlock_id = c.unlock_id
            """)
    }
}
