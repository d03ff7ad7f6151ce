import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.activity_counted` and `activity_events_applied`: a user's count of a kind is the number of
/// their rows of that kind, each row one thing counted (an event attended, an item bought, a photo squished, a
/// comment), so counting the same thing twice adds nothing and taking it back removes exactly it.
enum ActivityCounterStore {
    /// What is counted, as stored in `kind`.
    enum Counter: String, CaseIterable {
        case attended, purchased, squished, commented
    }

    /// Records that `source`'s activity `activityID` is applied; false when it was before (a replay).
    static func markApplied(source: String, activityID: String, in tx: PostgresTransaction) async throws
        -> Bool
    {
        try await tx.query(
            """
            INSERT INTO gamification.activity_events_applied (source, activity_id)
            VALUES (\(source), \(activityID)) ON CONFLICT DO NOTHING
            """
        ).affectedRows == 1
    }

    /// Counts `subject` for `user` under `counter`, unless it is counted already.
    static func count(_ counter: Counter, _ subject: String, for user: UserID, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            INSERT INTO gamification.activity_counted (kind, subject, user_id)
            VALUES (\(counter.rawValue), \(subject), \(user)::uuid) ON CONFLICT DO NOTHING
            """)
    }

    /// Takes back `subject` counted under `counter`, for `user`, or for whoever it was counted for when nil.
    static func uncount(_ counter: Counter, _ subject: String, for user: UserID?, in tx: PostgresTransaction)
        async throws
    {
        if let user {
            try await tx.query(
                """
                DELETE FROM gamification.activity_counted
                WHERE kind = \(counter.rawValue) AND subject = \(subject) AND user_id = \(user)::uuid
                """)
        } else {
            try await tx.query(
                """
                DELETE FROM gamification.activity_counted
                WHERE kind = \(counter.rawValue) AND subject = \(subject)
                """)
        }
    }

    /// `user`'s counts, zero for kinds with nothing counted.
    static func counters(of user: UserID, on database: PostgresPool) async throws
        -> Kindred_Gamification_V1_ActivityCounters
    {
        let rows = try await database.pureRead(
            """
            SELECT kind, count(*) FROM gamification.activity_counted WHERE user_id = \(user)::uuid GROUP BY kind
            """)
        var counts: [String: Int64] = [:]
        for row in rows {
            counts[try row.decode(String.self, column: 0)] = try row.decode(Int64.self, column: 1)
        }
        func count(_ counter: Counter) -> Int64 { counts[counter.rawValue] ?? 0 }
        return .init(
            userID: user.description, eventsAttended: count(.attended), itemsPurchased: count(.purchased),
            photosSquished: count(.squished), commentsAdded: count(.commented))
    }

    /// Forgets a deleted user's counts (identity's `user.deleted`).
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM gamification.activity_counted WHERE user_id = \(user)::uuid")
    }
}
