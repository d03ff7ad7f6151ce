import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `family.baby_arrivals` (migrations 17, 22 and 33): at most one announcement per profile, the facts of the
/// birth sealed as one record (`ArrivalBirth`), and the message sealed beside it.
enum ArrivalStore {
    /// Inserts the announcement unless `profile` has one, and, when it was inserted and the details give a name,
    /// names the profile with it, in one statement: the profile's gender when the announcement was inserted,
    /// nil when there already was one (nothing written then: of racing announcements one wins).
    static func insert(
        _ details: ArrivalDetails, of profile: BabyProfileID, by owner: UserID, at now: Date,
        seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> Kindred_Family_V1_BabyGender? {
        var query: PostgresQuery = """
            WITH inserted AS (
                INSERT INTO family.baby_arrivals (profile_id, announced_by, birth_sealed, photo_id, message,
                    message_sealed, announced_at, updated_at)
                VALUES (\(profile)::uuid, \(owner)::uuid,
                    \(seals.seal(details.birth.record, .arrivalBirth, of: profile))::bytea,
                    \(details.photo)::uuid, NULL, \(seals.seal(details.message, .arrivalMessage, of: profile))::bytea,
                    \(now), \(now))
                ON CONFLICT (profile_id) DO NOTHING
                RETURNING profile_id)
            """
        if let name = details.name {
            query.append(
                """
                , named AS (
                    UPDATE family.baby_profiles p
                    SET name = NULL, name_sealed = \(seals.seal(name, .name, of: profile))::bytea, updated_at = \(now)
                    FROM inserted WHERE p.profile_id = inserted.profile_id)
                """)
        }
        query.append(
            unsafeSQL: " SELECT p.gender FROM family.baby_profiles p JOIN inserted USING (profile_id)")
        return try await tx.query(query).first.map {
            Kindred_Family_V1_BabyGender(rawValue: Int32(try $0.decode(Int.self, column: 0)))
        }
    }

    /// Replaces the announcement's details (a record from before sealing by its sealed successor); false when
    /// there is none.
    static func update(
        _ details: ArrivalDetails, of profile: BabyProfileID, at now: Date, seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            UPDATE family.baby_arrivals
            SET birth_date = NULL, birth_time = NULL, weight_grams = NULL, length_mm = NULL,
                birth_sealed = \(seals.seal(details.birth.record, .arrivalBirth, of: profile))::bytea,
                photo_id = \(details.photo)::uuid, message = NULL,
                message_sealed = \(seals.seal(details.message, .arrivalMessage, of: profile))::bytea,
                updated_at = \(now)
            WHERE profile_id = \(profile)::uuid
            RETURNING 1
            """
        ).isEmpty
    }

    /// Gives the profile the baby's name, sealed.
    static func name(
        _ profile: BabyProfileID, _ name: String, at now: Date, seals: BabySeals, in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.baby_profiles
            SET name = NULL, name_sealed = \(seals.seal(name, .name, of: profile))::bytea, updated_at = \(now)
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
        of profiles: [BabyProfileID], since: Date?, readBy reader: UserID, seals: BabySeals,
        on db: some StatementRunner
    ) async throws -> [StoredArrival] {
        try await db.pureRead(arrivals(of: profiles, since: since, readBy: reader)).map {
            try StoredArrival($0, seals: seals)
        }
    }

    /// The SELECT of `arrivals`, whose rows `StoredArrival` decodes: for a read that checks membership in the
    /// same statement (`BabyMemberStore.readAsMember`).
    static func arrivals(of profiles: [BabyProfileID], since: Date?, readBy reader: UserID) -> PostgresQuery {
        """
        SELECT \(columns(readBy: reader))
        FROM family.baby_arrivals a
        JOIN family.baby_profiles p ON p.profile_id = a.profile_id
        \(unsafeSQL: joins)
        WHERE a.profile_id = ANY(\(PostgresArray(profiles))::uuid[])
          AND (\(since)::timestamptz IS NULL OR a.announced_at > \(since)::timestamptz)
        ORDER BY a.announced_at DESC, a.profile_id
        """
    }

    /// The announcement of the profile `p` of the statement around it made after `since`, none when `since` is
    /// nil (a later page of the home), in `arrivals`' columns: a `LATERAL` of a read that already has the
    /// profile's row (`BabyHomeStore.memberships`), one probe of the primary key per profile.
    static func arrival(ofProfileSince since: Date?, readBy reader: UserID) -> PostgresQuery {
        """
        SELECT \(columns(readBy: reader))
        FROM family.baby_arrivals a
        \(unsafeSQL: joins)
        WHERE a.profile_id = p.profile_id AND \(since)::timestamptz IS NOT NULL
          AND a.announced_at > \(since)::timestamptz
        """
    }

    /// The columns `StoredArrival` decodes, of the announcement `a`, its profile `p`, and the namesake `c` and
    /// photo `ph` that `joins` adds.
    private static func columns(readBy reader: UserID) -> PostgresQuery {
        """
        a.profile_id, p.name, p.name_sealed, coalesce(c.last_name, ''), \(unsafeSQL: plainBirth),
            a.birth_sealed, ph.photo_id, ph.media_type, a.message, a.announced_by, a.announced_at,
            a.updated_at, a.squish_count,
            EXISTS (SELECT 1 FROM family.arrival_squishes s
                    WHERE s.profile_id = a.profile_id AND s.user_id = \(reader)::uuid),
            c.user_id, c.last_name_sealed, a.message_sealed
        """
    }

    /// The announcement's namesake `c` (of its profile `p`) and photo `ph` (gone once deleted).
    private static let joins = """
        LEFT JOIN family.profiles c ON c.user_id = family.baby_namesake(p.profile_id, p.created_by)
        LEFT JOIN family.baby_photos ph ON ph.profile_id = a.profile_id AND ph.photo_id = a.photo_id
        """

    /// The `ArrivalBirth.record` of a row `a` from before sealing, made of its plaintext columns; NULL once
    /// sealed.
    static let plainBirth = """
        CASE WHEN a.birth_date IS NOT NULL THEN concat_ws('|', a.birth_date::text,
            coalesce(to_char(a.birth_time, 'HH24:MI'), ''), coalesce(a.weight_grams::text, ''),
            coalesce(a.length_mm::text, '')) END
        """
}
