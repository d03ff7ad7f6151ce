import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.baby_photos` (migrations 17 and 18): one row per photo whose bytes are in the `PhotoObjectStore`.
enum BabyPhotoStore {
    /// Holds the uploader's membership of the photo's profile and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`); for a member, takes the transaction-scoped advisory lock on uploads to
    /// the profile, so that two uploads racing for the gallery's last place count one after the other (the
    /// count alone, under READ COMMITTED, would let both in); and inserts `photo` unless the profile already
    /// holds `limit` photos. Two statements in one round trip: the insert, a statement of its own, counts with
    /// a snapshot taken once the lock is held, so it sees every upload that held it before.
    ///
    /// The insert runs before its caller has looked at the author. A caller who is no longer an owner has it
    /// rolled back with the transaction; a retry's fails on the request's unique key (`IdempotentCreate` then
    /// answers the first photo); a profile deleted meanwhile fails its foreign key. Nil when the uploader is not
    /// a member of the active profile; the author and whether the photo was inserted otherwise.
    static func lockUploadsAndInsert(
        _ photo: StoredBabyPhoto, requestID: String, limit: Int, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, inserted: Bool)? {
        let (profile, owner) = (photo.profile, photo.uploadedBy)
        let answers: [PostgresRows]
        do {
            answers = try await tx.query([
                """
                WITH author AS (\(BabyActivityStore.authorHold(owner, of: profile)))
                SELECT author.*,
                    pg_advisory_xact_lock(hashtextextended('family.baby_photos ' || \(profile.description), 0))
                FROM author
                """,
                """
                INSERT INTO family.baby_photos
                    (profile_id, photo_id, uploaded_by, caption, file_name, media_type, width, height, byte_count,
                     request_id, created_at)
                SELECT \(profile)::uuid, \(photo.id)::uuid, \(owner)::uuid, \(photo.caption),
                    \(photo.fileName), \(photo.mediaType), \(photo.width), \(photo.height), \(photo.byteCount),
                    \(requestID), \(photo.createdAt)
                WHERE (SELECT count(*) FROM family.baby_photos WHERE profile_id = \(profile)::uuid) < \(limit)
                RETURNING 1
                """,
            ])
        } catch let error as PostgresError where error.isForeignKeyViolation {
            return nil
        }
        guard let row = answers[0].first,
            let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        return (author, !answers[1].isEmpty)
    }

    /// The photo `owner` uploaded to `profile` under `requestID`, if any.
    static func uploaded(
        by owner: UserID, requestID: String, on profile: BabyProfileID, on db: some StatementRunner
    ) async throws -> PhotoID? {
        try await db.pureRead(uploaded(by: owner, requestID: requestID, on: profile)).first.map {
            try $0.decode(PhotoID.self, column: 0)
        }
    }

    /// The SELECT of `uploaded`, for `admission` too.
    private static func uploaded(by owner: UserID, requestID: String, on profile: BabyProfileID)
        -> PostgresQuery
    {
        """
        SELECT photo_id FROM family.baby_photos
        WHERE profile_id = \(profile)::uuid AND uploaded_by = \(owner)::uuid AND request_id = \(requestID)
        """
    }

    /// What an upload checks before its bytes, in one read: `owner`'s role on `profile` (nil when not a member
    /// of the active profile), the photo they uploaded to it under `requestID` if any, and how many photos it
    /// holds.
    static func admission(
        of owner: UserID, requestID: String, to profile: BabyProfileID, on db: some StatementRunner
    ) async throws -> (role: BabyRole?, earlier: PhotoID?, photos: Int) {
        let row = try await db.pureRead(
            """
            SELECT (\(BabyMemberStore.role(of: owner, in: profile))),
                (\(uploaded(by: owner, requestID: requestID, on: profile))),
                (SELECT count(*) FROM family.baby_photos WHERE profile_id = \(profile)::uuid)
            """)[0]
        return (
            try row.decode(Int?.self, column: 0).flatMap(BabyRole.init(rawValue:)),
            try row.decode(PhotoID?.self, column: 1), try row.decode(Int.self, column: 2)
        )
    }

    /// Up to `limit` photos of `profiles` (only `only`, when given), newest first, after `position`.
    static func photos(
        of profiles: [BabyProfileID], only: PhotoID? = nil, after position: PhotoID?, limit: Int,
        on db: some StatementRunner
    ) async throws -> [StoredBabyPhoto] {
        try await db.pureRead(photos(of: profiles, only: only, after: position, limit: limit)).map(
            storedPhoto)
    }

    /// The SELECT of `photos`, whose rows `storedPhoto` decodes: for a read that checks membership in the same
    /// statement (`BabyMemberStore.readAsMember`).
    static func photos(
        of profiles: [BabyProfileID], only: PhotoID? = nil, after position: PhotoID?, limit: Int
    )
        -> PostgresQuery
    {
        // Each profile's page walks its primary key backwards from the position, then the newest of those. With
        // `profile_id = ANY(…)` and `($1 IS NULL OR photo_id < $1)`, the generic plan read every photo of the
        // profiles and sorted them (81 buffers for a page of 13 of a profile's 86 photos; 18 now). One photo's
        // read names it in its own statement, for the same reason.
        let onlyThatPhoto: PostgresQuery = only.map { "AND p.photo_id = \($0)::uuid" } ?? ""
        return """
            SELECT p.photo_id, p.profile_id, p.uploaded_by, p.caption, p.file_name, p.media_type, p.width,
                p.height, p.byte_count, p.squish_count, p.created_at
            FROM unnest(\(PostgresArray(profiles.map(\.description)))::uuid[]) AS s(profile_id)
            CROSS JOIN LATERAL (
                SELECT * FROM family.baby_photos p
                WHERE p.profile_id = s.profile_id \(onlyThatPhoto)
                    AND p.photo_id < coalesce(\(position)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff')
                ORDER BY p.photo_id DESC
                LIMIT \(limit)) p
            ORDER BY p.photo_id DESC
            LIMIT \(limit)
            """
    }

    /// Replaces the caption; false when there is no such photo.
    static func updateCaption(
        _ photo: PhotoID, of profile: BabyProfileID, to caption: String, in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            UPDATE family.baby_photos SET caption = \(caption)
            WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid
            RETURNING 1
            """
        ).isEmpty
    }

    /// Whether `photo` is one of `profile`'s, holding it until `tx` ends so that it is not deleted meanwhile
    /// (the profile photo names it).
    static func holdPhoto(_ photo: PhotoID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
        -> Bool
    {
        try await !tx.query(
            """
            SELECT 1 FROM family.baby_photos
            WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid FOR KEY SHARE
            """
        ).isEmpty
    }

    /// Deletes the photo with its squishes and comments, and stops it being the profile photo; false when
    /// there was none.
    static func delete(_ photo: PhotoID, of profile: BabyProfileID, in tx: PostgresTransaction) async throws
        -> Bool
    {
        try await tx.query(
            """
            DELETE FROM family.baby_comments
            WHERE profile_id = \(profile)::uuid AND target_kind = \(CommentTarget.Kind.photo.rawValue)
                AND target_id = \(photo)::uuid
            """)
        // The row is deleted first: an update making it the profile photo, which holds it, commits before,
        // and the profile's update below then sees its photo id.
        guard
            try await !tx.query(
                """
                DELETE FROM family.baby_photos WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid
                RETURNING 1
                """
            ).isEmpty
        else { return false }
        try await tx.query(
            """
            UPDATE family.baby_profiles SET photo_id = NULL
            WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid
            """)
        return true
    }

    /// Which of `keys` a photo row names: what the orphan sweep keeps.
    static func known(_ keys: [PhotoObjectKey], on db: some StatementRunner) async throws -> Set<
        PhotoObjectKey
    > {
        guard !keys.isEmpty else { return [] }
        let rows = try await db.pureRead(
            """
            SELECT p.profile_id, p.photo_id
            FROM unnest(\(PostgresArray(keys.map(\.profileName)))::uuid[],
                \(PostgresArray(keys.map(\.photoName)))::uuid[]) AS k(profile_id, photo_id)
            JOIN family.baby_photos p USING (profile_id, photo_id)
            """)
        return Set(
            try rows.map {
                PhotoObjectKey(
                    profile: try $0.decode(BabyProfileID.self, column: 0),
                    photo: try $0.decode(PhotoID.self, column: 1))
            })
    }

    /// A photo from the columns `photos` selects.
    static func storedPhoto(_ row: PostgresRow) throws -> StoredBabyPhoto {
        StoredBabyPhoto(
            id: try row.decode(PhotoID.self, column: 0),
            profile: try row.decode(BabyProfileID.self, column: 1),
            uploadedBy: try row.decode(UserID.self, column: 2),
            caption: try row.decode(String.self, column: 3),
            fileName: try row.decode(String.self, column: 4),
            mediaType: try row.decode(String.self, column: 5),
            width: try row.decode(Int.self, column: 6), height: try row.decode(Int.self, column: 7),
            byteCount: try row.decode(Int.self, column: 8), squishCount: try row.decode(Int.self, column: 9),
            createdAt: try row.decode(Date.self, column: 10))
    }
}
