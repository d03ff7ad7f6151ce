import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.baby_arrivals` (migration 17): at most one announcement per profile.
enum ArrivalStore {
    /// Inserts the announcement; false when `profile` already has one (racing announcements: one wins).
    static func insert(
        _ details: ArrivalDetails, of profile: BabyProfileID, by owner: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            INSERT INTO family.baby_arrivals (profile_id, announced_by, birth_date, birth_time, weight_grams,
                length_mm, photo_id, message, announced_at, updated_at)
            VALUES (\(profile)::uuid, \(owner)::uuid, \(details.birthDate.iso)::date, \(details.birthTime)::time,
                \(details.weightGrams)::integer, \(details.lengthMM)::integer, \(details.photo)::uuid,
                \(details.message), \(now), \(now))
            ON CONFLICT (profile_id) DO NOTHING
            RETURNING 1
            """
        ).isEmpty
    }

    /// Replaces the announcement's details; false when there is none.
    static func update(
        _ details: ArrivalDetails, of profile: BabyProfileID, at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            UPDATE family.baby_arrivals
            SET birth_date = \(details.birthDate.iso)::date, birth_time = \(details.birthTime)::time,
                weight_grams = \(details.weightGrams)::integer, length_mm = \(details.lengthMM)::integer,
                photo_id = \(details.photo)::uuid, message = \(details.message), updated_at = \(now)
            WHERE profile_id = \(profile)::uuid
            RETURNING 1
            """
        ).isEmpty
    }

    /// Gives the profile the baby's name.
    static func name(_ profile: BabyProfileID, _ name: String, at now: Date, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            UPDATE family.baby_profiles SET name = \(name), updated_at = \(now)
            WHERE profile_id = \(profile)::uuid
            """)
    }

    /// Whether `photo` is one of `profile`'s photos, held until `tx` ends so that it is not deleted under the
    /// announcement naming it.
    static func holdPhoto(_ photo: PhotoID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
        -> Bool
    {
        try await !tx.query(
            """
            SELECT 1 FROM family.baby_photos
            WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid
            FOR KEY SHARE
            """
        ).isEmpty
    }

    /// Whether `profile` has an announcement, held until `tx` ends.
    static func holdArrival(of profile: BabyProfileID, in tx: PostgresTransaction) async throws -> Bool {
        try await !tx.query(
            "SELECT 1 FROM family.baby_arrivals WHERE profile_id = \(profile)::uuid FOR KEY SHARE"
        ).isEmpty
    }

    /// Whether `photo` is one of `profile`'s photos, or, with no photo, whether `profile` has an announcement.
    static func exists(photo: PhotoID?, of profile: BabyProfileID, on db: some StatementRunner) async throws
        -> Bool
    {
        try await db.pureRead(
            """
            SELECT CASE WHEN \(photo)::uuid IS NULL
                THEN EXISTS (SELECT 1 FROM family.baby_arrivals WHERE profile_id = \(profile)::uuid)
                ELSE EXISTS (SELECT 1 FROM family.baby_photos
                             WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid)
            END
            """
        )[0].decode(Bool.self)
    }

    /// The announcements of `profiles` made after `since` (all when nil), newest first, as `reader` sees them.
    static func arrivals(
        of profiles: [BabyProfileID], since: Date?, readBy reader: UserID, on db: some StatementRunner
    ) async throws -> [StoredArrival] {
        try await db.pureRead(
            """
            SELECT a.profile_id, p.name, coalesce(c.last_name, ''), a.birth_date::text,
                to_char(a.birth_time, 'HH24:MI'), a.weight_grams, a.length_mm, ph.photo_id, ph.media_type,
                a.message, a.announced_by, a.announced_at, a.updated_at, a.squish_count,
                EXISTS (SELECT 1 FROM family.arrival_squishes s
                        WHERE s.profile_id = a.profile_id AND s.user_id = \(reader)::uuid)
            FROM family.baby_arrivals a
            JOIN family.baby_profiles p ON p.profile_id = a.profile_id
            LEFT JOIN family.profiles c ON c.user_id = p.created_by
            LEFT JOIN family.baby_photos ph ON ph.profile_id = a.profile_id AND ph.photo_id = a.photo_id
            WHERE a.profile_id = ANY(\(PostgresArray(profiles))::uuid[])
              AND (\(since)::timestamptz IS NULL OR a.announced_at > \(since)::timestamptz)
            ORDER BY a.announced_at DESC, a.profile_id
            """
        ).map(StoredArrival.init)
    }
}
