import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.profiles`, read together with whether the user's parental controls are active.
enum ProfileStore {
    /// One profile as stored; every text field empty for a user who never wrote one.
    struct Row: Sendable, Equatable {
        var displayName = ""
        var firstName = ""
        var lastName = ""
        var avatarURL = ""
        var bio = ""
        var parentalControlsActive = false
        var updatedAt: Date?
    }

    /// `userID`'s profile: an empty one when there is no row. Its first and last names are opened with `names`,
    /// and left empty when `names` is nil (a reader that shows no names opens none).
    static func read(_ userID: UserID, names: ProfileNames?, on db: some StatementRunner) async throws
        -> Row
    {
        let rows = try await db.pureRead(
            """
            SELECT p.display_name, p.avatar_url, p.bio, coalesce(c.active, false), p.updated_at,
                p.first_name, p.user_id, p.first_name_sealed, p.last_name, p.user_id, p.last_name_sealed
            FROM (SELECT \(userID)::uuid AS user_id) u
            LEFT JOIN family.profiles p ON p.user_id = u.user_id
            LEFT JOIN family.parental_controls c ON c.minor_id = u.user_id
            """)
        let row = rows[0]
        return Row(
            displayName: try row.decode(String?.self, column: 0) ?? "",
            firstName: try names.map { try name(row, plain: 5, user: 6, $0.first) } ?? "",
            lastName: try names.map { try name(row, plain: 8, user: 9, $0.last) } ?? "",
            avatarURL: try row.decode(String?.self, column: 1) ?? "",
            bio: try row.decode(String?.self, column: 2) ?? "",
            parentalControlsActive: try row.decode(Bool.self, column: 3),
            updatedAt: try row.decode(Date?.self, column: 4))
    }

    /// Writes the fields of `row` that `fields` names (the others keep their stored value, or stay empty for
    /// a new row), the names sealed with `names`, and returns the profile as stored.
    static func write(
        _ row: Row, fields: Set<ProfileField>, of userID: UserID, names: ProfileNames, now: Date,
        in tx: PostgresTransaction
    ) async throws -> Row {
        let set = { (field: ProfileField) in fields.contains(field) }
        let first = names.first.seal(row.firstName, of: userID)
        let last = names.last.seal(row.lastName, of: userID)
        try await tx.query(
            """
            INSERT INTO family.profiles
                (user_id, display_name, first_name_sealed, last_name_sealed, avatar_url, bio, updated_at)
            VALUES (\(userID)::uuid, \(row.displayName), \(first)::bytea, \(last)::bytea, \(row.avatarURL),
                \(row.bio), \(now))
            ON CONFLICT (user_id) DO UPDATE SET
                display_name = CASE WHEN \(set(.displayName)) THEN excluded.display_name
                    ELSE family.profiles.display_name END,
                first_name = CASE WHEN \(set(.firstName)) THEN '' ELSE family.profiles.first_name END,
                first_name_sealed = CASE WHEN \(set(.firstName)) THEN excluded.first_name_sealed
                    ELSE family.profiles.first_name_sealed END,
                last_name = CASE WHEN \(set(.lastName)) THEN '' ELSE family.profiles.last_name END,
                last_name_sealed = CASE WHEN \(set(.lastName)) THEN excluded.last_name_sealed
                    ELSE family.profiles.last_name_sealed END,
                avatar_url = CASE WHEN \(set(.avatarURL)) THEN excluded.avatar_url
                    ELSE family.profiles.avatar_url END,
                bio = CASE WHEN \(set(.bio)) THEN excluded.bio ELSE family.profiles.bio END,
                updated_at = excluded.updated_at
            """)
        return try await read(userID, names: names, on: tx)
    }

    /// Deletes `userID`'s profile.
    static func delete(_ userID: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.profiles WHERE user_id = \(userID)::uuid")
    }
}
