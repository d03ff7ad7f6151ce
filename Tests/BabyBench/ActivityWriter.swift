import Foundation
import KindredMessages
import KindredPostgres

/// Commits activity entries on one profile as `BabyActivityLog.record` writes them for the streams: the
/// `family.baby_activity` row and its entry on `family.baby_activity_feed`, in one transaction.
struct ActivityWriter: Sendable {
    let pool: PostgresPool
    let profile: String
    let actor: String

    /// Commits one entry with `detail`; returns its activity id once COMMIT returned.
    func commit(detail: String) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let activity = Kindred_Family_V1_BabyActivity(
            profileID: profile, activityID: id, kind: .commentAdded, actorID: actor, detail: detail,
            occurredAt: .init(seconds: Int64(Date().timeIntervalSince1970), nanos: 0))
        let payload = try activity.serializedBytes()
        try await pool.transaction { tx in
            try await tx.query(
                """
                INSERT INTO family.baby_activity (profile_id, activity_id, kind, actor_id, detail, occurred_at)
                VALUES (\(profile)::uuid, \(id)::uuid, 4, \(actor)::uuid, \(detail), now())
                """)
            try await tx.query(
                "INSERT INTO family.baby_activity_feed (type, payload) VALUES ('baby.activity', \(payload))")
        }
        return id
    }
}
