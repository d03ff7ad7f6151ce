import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `family.baby_profiles` (and `family.baby_profile_requests`, `CreateBabyProfile`'s idempotency
/// keys). Every read is a member's: it joins the reader's membership, so a stranger reads nothing.
enum BabyProfileStore {
    /// The fields an owner writes.
    struct Fields: Sendable, Equatable {
        var name: String?
        var expectedBirthDate: BabyBirthDate?
        var gender: Kindred_Family_V1_BabyGender = .unspecified
        var photoID: PhotoID?
    }

    /// `profile` as `reader` sees it; nil when they are not a member or it is deactivated.
    static func read(
        _ profile: BabyProfileID, as reader: UserID, seals: BabySeals, on db: some StatementRunner
    ) async throws -> StoredBabyProfile? {
        try await db.pureRead(
            """
            SELECT p.profile_id, p.created_by, p.name, coalesce(c.last_name, ''), p.expected_birth_date::text,
                p.gender, p.photo_id, p.created_at, p.updated_at, m.role, m.joined_at, p.name_sealed,
                p.expected_birth_date_sealed, c.user_id, c.last_name_sealed
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c ON c.user_id = family.baby_namesake(p.profile_id, p.created_by)
            WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(reader)::uuid
            """
        ).first.map { try decode($0, seals) }
    }

    /// `reader`'s active profiles after `position`, owned first, then followed, each in the order joined.
    static func page(
        of reader: UserID, after position: BabyMemberPosition<IDKind.BabyProfile>?, limit: Int,
        seals: BabySeals, on db: some StatementRunner
    ) async throws -> [StoredBabyProfile] {
        try await db.pureRead(
            """
            SELECT p.profile_id, p.created_by, p.name, coalesce(c.last_name, ''), p.expected_birth_date::text,
                p.gender, p.photo_id, p.created_at, p.updated_at, m.role, m.joined_at, p.name_sealed,
                p.expected_birth_date_sealed, c.user_id, c.last_name_sealed
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c ON c.user_id = family.baby_namesake(p.profile_id, p.created_by)
            WHERE m.user_id = \(reader)::uuid AND (\(position == nil) OR (m.role, m.joined_at, m.profile_id)
                > (\(position?.role.rawValue)::smallint, \(position?.joinedAt), \(position?.id)::uuid))
            ORDER BY m.role, m.joined_at, m.profile_id
            LIMIT \(limit)
            """
        ).map { try decode($0, seals) }
    }

    /// The profile `user` created with `requestID`, if any.
    static func created(by user: UserID, requestID: String, on db: some StatementRunner) async throws
        -> BabyProfileID?
    {
        try await db.pureRead(
            """
            SELECT profile_id FROM family.baby_profile_requests
            WHERE user_id = \(user)::uuid AND request_id = \(requestID)
            """
        ).first?.decode(BabyProfileID.self, column: 0)
    }

    /// Creates `profile` with `owner` as its first owner, related to the baby as `relationship`, its name and
    /// expected birth date sealed, remembering `requestID`; a second insert of the same request id fails with a
    /// unique violation.
    static func insert(
        _ profile: BabyProfileID, _ fields: Fields, owner: UserID, _ relationship: BabyRelationship,
        requestID: String, now: Date,
        seals: BabySeals, in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            WITH profile AS (
                INSERT INTO family.baby_profiles
                    (profile_id, created_by, name_sealed, expected_birth_date_sealed, gender, created_at,
                    updated_at)
                VALUES (\(profile)::uuid, \(owner)::uuid,
                    \(seals.seal(fields.name, .name, of: profile))::bytea,
                    \(seals.seal(fields.expectedBirthDate?.iso, .expectedBirthDate, of: profile))::bytea,
                    \(Int(fields.gender.rawValue))::smallint, \(now), \(now))
                RETURNING profile_id
            ), owner AS (
                INSERT INTO family.baby_members (profile_id, user_id, role, relationship, joined_at)
                SELECT profile_id, \(owner)::uuid, \(BabyRole.owner.rawValue)::smallint,
                    \(Int(relationship.kind.rawValue))::smallint, \(now)
                FROM profile
            )
            INSERT INTO family.baby_profile_requests (user_id, request_id, profile_id)
            SELECT \(owner)::uuid, \(requestID), profile_id FROM profile
            """)
    }

    /// Writes the fields `changed` names to their values in `fields`, the name and the date sealed (a value
    /// from before sealing is replaced by its sealed successor).
    static func update(
        _ profile: BabyProfileID, _ fields: Fields, changed: Set<BabyProfileField>, now: Date,
        seals: BabySeals, in tx: PostgresTransaction
    ) async throws {
        let set = { (field: BabyProfileField) in changed.contains(field) }
        let name = seals.seal(fields.name, .name, of: profile)
        let date = seals.seal(fields.expectedBirthDate?.iso, .expectedBirthDate, of: profile)
        try await tx.query(
            """
            UPDATE family.baby_profiles SET
                name = CASE WHEN \(set(.name)) THEN NULL ELSE name END,
                name_sealed = CASE WHEN \(set(.name)) THEN \(name)::bytea ELSE name_sealed END,
                expected_birth_date = CASE WHEN \(set(.expectedBirthDate))
                    THEN NULL ELSE expected_birth_date END,
                expected_birth_date_sealed = CASE WHEN \(set(.expectedBirthDate))
                    THEN \(date)::bytea ELSE expected_birth_date_sealed END,
                gender = CASE WHEN \(set(.gender)) THEN \(Int(fields.gender.rawValue))::smallint
                    ELSE gender END,
                photo_id = CASE WHEN \(set(.photoID)) THEN \(fields.photoID)::uuid ELSE photo_id END,
                updated_at = \(now)
            WHERE profile_id = \(profile)::uuid
            """)
    }

    /// Locks `profile`'s row until `tx` ends, so that changes to its owners (accepting, leaving) take turns;
    /// whether it exists and is active.
    static func lock(_ profile: BabyProfileID, in tx: PostgresTransaction) async throws -> Bool {
        try await tx.query(
            "SELECT active FROM family.baby_profiles WHERE profile_id = \(profile)::uuid FOR UPDATE"
        ).first?.decode(Bool.self, column: 0) ?? false
    }

    /// Deletes `profile` as members see it: its members and invitations go, and its content stays, unread by
    /// anyone (every read goes through an active membership), until the retention purge removes it.
    static func retire(_ profile: BabyProfileID, at now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            WITH members AS (DELETE FROM family.baby_members WHERE profile_id = \(profile)::uuid),
            invitations AS (DELETE FROM family.baby_invitations WHERE profile_id = \(profile)::uuid)
            UPDATE family.baby_profiles SET active = false, deleted_at = \(now), updated_at = \(now)
            WHERE profile_id = \(profile)::uuid
            """)
    }

    private static func decode(_ row: PostgresRow, _ seals: BabySeals) throws -> StoredBabyProfile {
        let id = try row.decode(BabyProfileID.self, column: 0)
        let role = try row.decode(Int.self, column: 9)
        let name = try seals.open(
            plain: try row.decode(String?.self, column: 2), sealed: try row.decode([UInt8]?.self, column: 11),
            .name, of: id)
        let date = try seals.open(
            plain: try row.decode(String?.self, column: 4), sealed: try row.decode([UInt8]?.self, column: 12),
            .expectedBirthDate, of: id)
        return StoredBabyProfile(
            id: id,
            createdBy: try row.decode(UserID.self, column: 1),
            name: name,
            namesakeLastName: try ProfileStore.name(row, plain: 3, user: 13, seals.names.last),
            expectedBirthDate: date.flatMap(BabyBirthDate.init(iso:)),
            gender: Kindred_Family_V1_BabyGender(rawValue: Int32(try row.decode(Int.self, column: 5))),
            photoID: try row.decode(PhotoID?.self, column: 6),
            createdAt: try row.decode(Date.self, column: 7),
            updatedAt: try row.decode(Date.self, column: 8), role: BabyRole(rawValue: role) ?? .follower,
            joinedAt: try row.decode(Date.self, column: 10))
    }
}
