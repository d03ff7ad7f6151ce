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
    static func read(_ profile: BabyProfileID, as reader: UserID, on db: some StatementRunner) async throws
        -> StoredBabyProfile?
    {
        try await db.pureRead(
            """
            SELECT p.profile_id, p.created_by, p.name, coalesce(c.last_name, ''), p.expected_birth_date::text,
                p.gender, p.photo_id, p.created_at, p.updated_at, m.role, m.joined_at
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c ON c.user_id = p.created_by
            WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(reader)::uuid
            """
        ).first.map(decode)
    }

    /// `reader`'s active profiles after `position`, owned first, then followed, each in the order joined.
    static func page(
        of reader: UserID, after position: BabyMemberPosition<IDKind.BabyProfile>?, limit: Int,
        on db: some StatementRunner
    ) async throws -> [StoredBabyProfile] {
        try await db.pureRead(
            """
            SELECT p.profile_id, p.created_by, p.name, coalesce(c.last_name, ''), p.expected_birth_date::text,
                p.gender, p.photo_id, p.created_at, p.updated_at, m.role, m.joined_at
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c ON c.user_id = p.created_by
            WHERE m.user_id = \(reader)::uuid AND (\(position == nil) OR (m.role, m.joined_at, m.profile_id)
                > (\(position?.role.rawValue)::smallint, \(position?.joinedAt), \(position?.id)::uuid))
            ORDER BY m.role, m.joined_at, m.profile_id
            LIMIT \(limit)
            """
        ).map(decode)
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

    /// Creates `profile` with `owner` as its first owner, remembering `requestID`; a second insert of the
    /// same request id fails with a unique violation.
    static func insert(
        _ profile: BabyProfileID, _ fields: Fields, owner: UserID, requestID: String, now: Date,
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            WITH profile AS (
                INSERT INTO family.baby_profiles
                    (profile_id, created_by, name, expected_birth_date, gender, created_at, updated_at)
                VALUES (\(profile)::uuid, \(owner)::uuid, \(fields.name),
                    \(fields.expectedBirthDate?.iso)::date,
                    \(Int(fields.gender.rawValue))::smallint, \(now), \(now))
                RETURNING profile_id
            ), owner AS (
                INSERT INTO family.baby_members (profile_id, user_id, role, joined_at)
                SELECT profile_id, \(owner)::uuid, \(BabyRole.owner.rawValue)::smallint, \(now) FROM profile
            )
            INSERT INTO family.baby_profile_requests (user_id, request_id, profile_id)
            SELECT \(owner)::uuid, \(requestID), profile_id FROM profile
            """)
    }

    /// Writes the fields `changed` names to their values in `fields`.
    static func update(
        _ profile: BabyProfileID, _ fields: Fields, changed: Set<BabyProfileField>, now: Date,
        in tx: PostgresTransaction
    ) async throws {
        let set = { (field: BabyProfileField) in changed.contains(field) }
        try await tx.query(
            """
            UPDATE family.baby_profiles SET
                name = CASE WHEN \(set(.name)) THEN \(fields.name) ELSE name END,
                expected_birth_date = CASE WHEN \(set(.expectedBirthDate))
                    THEN \(fields.expectedBirthDate?.iso)::date ELSE expected_birth_date END,
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

    private static func decode(_ row: PostgresRow) throws -> StoredBabyProfile {
        let role = try row.decode(Int.self, column: 9)
        return StoredBabyProfile(
            id: try row.decode(BabyProfileID.self, column: 0),
            createdBy: try row.decode(UserID.self, column: 1),
            name: try row.decode(String?.self, column: 2),
            creatorLastName: try row.decode(String.self, column: 3),
            expectedBirthDate: try row.decode(String?.self, column: 4).flatMap(BabyBirthDate.init(iso:)),
            gender: Kindred_Family_V1_BabyGender(rawValue: Int32(try row.decode(Int.self, column: 5))),
            photoID: try row.decode(PhotoID?.self, column: 6),
            createdAt: try row.decode(Date.self, column: 7),
            updatedAt: try row.decode(Date.self, column: 8), role: BabyRole(rawValue: role) ?? .follower,
            joinedAt: try row.decode(Date.self, column: 10))
    }
}
