import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads of `family.baby_photos` to re-seal the photos' bytes (`PhotoObjectRotation`).
extension BabyPhotoStore {
    /// The keys of up to `limit` photos after `after` (nil: from the first), in key order.
    static func keys(after: PhotoObjectKey?, limit: Int, on db: some StatementRunner) async throws
        -> [PhotoObjectKey]
    {
        try await db.pureRead(
            """
            SELECT profile_id, photo_id FROM family.baby_photos
            WHERE (profile_id, photo_id) > (
                coalesce(\(after?.profileName)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.photoName)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, photo_id LIMIT \(limit)
            """
        ).map { row in
            PhotoObjectKey(
                profile: try row.decode(BabyProfileID.self, column: 0),
                photo: try row.decode(PhotoID.self, column: 1))
        }
    }

    /// Locks the row of the photo `key` names until the transaction ends, so that its bytes are replaced by
    /// one rotation at a time and never after a delete; false when the photo is gone.
    static func lock(_ key: PhotoObjectKey, in tx: PostgresTransaction) async throws -> Bool {
        try await !tx.query(
            """
            SELECT 1 FROM family.baby_photos
            WHERE profile_id = \(key.profileName)::uuid AND photo_id = \(key.photoName)::uuid FOR NO KEY UPDATE
            """
        ).isEmpty
    }
}
