import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the activity's details (`ActivityDetails`).
extension BabyActivityStore {
    /// Up to `limit` entries after `after` (nil: from the first), in key order, with their stored details.
    static func details(after: ActivityDetails.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(ActivityDetails.Key, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT profile_id, activity_id, detail, detail_sealed FROM family.baby_activity
            WHERE (profile_id, activity_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.activity)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, activity_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, BabyActivityID, String?, [UInt8]?).self).map {
            (
                ActivityDetails.Key(profile: $0, activity: $1),
                StoredText(plain: $3 == nil ? $2 : nil, sealed: $3)
            )
        }
    }

    /// Replaces the detail of `key` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ key: ActivityDetails.Key, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.baby_activity SET detail_sealed = \(sealed)::bytea, detail = NULL
            WHERE profile_id = \(key.profile)::uuid AND activity_id = \(key.activity)::uuid
              AND detail_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
