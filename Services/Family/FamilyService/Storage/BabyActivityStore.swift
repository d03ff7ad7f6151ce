import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.baby_activity`: a profile's recent activity.
enum BabyActivityStore {
    static func insert(
        _ entry: BabyActivityEntry, id: BabyActivityID, at now: Date, in tx: PostgresTransaction
    )
        async throws
    {
        try await tx.query(
            """
            INSERT INTO family.baby_activity
                (profile_id, activity_id, kind, actor_id, subject_id, detail, occurred_at)
            VALUES (\(entry.profile)::uuid, \(id)::uuid, \(entry.kind.rawValue)::smallint, \(entry.actor)::uuid,
                    \(entry.subject?.uuidString)::uuid, \(entry.detail), \(now))
            """)
    }
}
