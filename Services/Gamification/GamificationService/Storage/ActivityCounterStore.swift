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

    /// An activity of a source (family's activity id, keyed under `source`), applied at most once.
    struct Activity: Sendable {
        let source: String
        let id: String
    }

    // Each change below is one statement that first records its activity in `activity_events_applied` and
    // changes the counts only if that row is new (a replay changes nothing). It goes with the consumer's COMMIT,
    // in its round trip (`queryAtCommit`, in the order applied), as nothing in that transaction reads the counts.

    /// Counts `subject` for `user` under `counter`, unless it is counted already, as `activity`.
    static func count(
        _ counter: Counter, _ subject: String, for user: UserID, as activity: Activity,
        in tx: PostgresTransaction
    ) {
        tx.queryAtCommit(
            """
            WITH applied AS (
                INSERT INTO gamification.activity_events_applied (source, activity_id)
                VALUES (\(activity.source), \(activity.id)) ON CONFLICT DO NOTHING RETURNING 1)
            INSERT INTO gamification.activity_counted (kind, subject, user_id)
            SELECT \(counter.rawValue), \(subject), \(user)::uuid FROM applied ON CONFLICT DO NOTHING
            """)
    }

    /// Takes back `subject` counted under `counter`, for `user`, or for whoever it was counted for when nil, as
    /// `activity`.
    static func uncount(
        _ counter: Counter, _ subject: String, for user: UserID?, as activity: Activity,
        in tx: PostgresTransaction
    ) {
        if let user {
            tx.queryAtCommit(
                """
                WITH applied AS (
                    INSERT INTO gamification.activity_events_applied (source, activity_id)
                    VALUES (\(activity.source), \(activity.id)) ON CONFLICT DO NOTHING RETURNING 1)
                DELETE FROM gamification.activity_counted
                WHERE kind = \(counter.rawValue) AND subject = \(subject) AND user_id = \(user)::uuid
                    AND EXISTS (SELECT 1 FROM applied)
                """)
        } else {
            tx.queryAtCommit(
                """
                WITH applied AS (
                    INSERT INTO gamification.activity_events_applied (source, activity_id)
                    VALUES (\(activity.source), \(activity.id)) ON CONFLICT DO NOTHING RETURNING 1)
                DELETE FROM gamification.activity_counted
                WHERE kind = \(counter.rawValue) AND subject = \(subject) AND EXISTS (SELECT 1 FROM applied)
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
