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

    /// `userID`'s profile: an empty one when there is no row.
    static func read(_ userID: UserID, on db: some StatementRunner) async throws -> Row {
        let rows = try await db.pureRead(
            """
            SELECT p.display_name, p.first_name, p.last_name, p.avatar_url, p.bio,
                coalesce(c.active, false), p.updated_at
            FROM (SELECT \(userID)::uuid AS user_id) u
            LEFT JOIN family.profiles p ON p.user_id = u.user_id
            LEFT JOIN family.parental_controls c ON c.minor_id = u.user_id
            """)
        let (display, first, last, avatar, bio, active, updatedAt) = try rows[0].decode(
            (String?, String?, String?, String?, String?, Bool, Date?).self)
        return Row(
            displayName: display ?? "", firstName: first ?? "", lastName: last ?? "", avatarURL: avatar ?? "",
            bio: bio ?? "", parentalControlsActive: active, updatedAt: updatedAt)
    }

    /// Writes the fields of `row` that `fields` names (the others keep their stored value, or stay empty for
    /// a new row) and returns the profile as stored.
    static func write(
        _ row: Row, fields: Set<ProfileField>, of userID: UserID, now: Date, in tx: PostgresTransaction
    ) async throws -> Row {
        let set = { (field: ProfileField) in fields.contains(field) }
        try await tx.query(
            """
            INSERT INTO family.profiles (user_id, display_name, first_name, last_name, avatar_url, bio, updated_at)
            VALUES (\(userID)::uuid, \(row.displayName), \(row.firstName), \(row.lastName), \(row.avatarURL),
                \(row.bio), \(now))
            ON CONFLICT (user_id) DO UPDATE SET
                display_name = CASE WHEN \(set(.displayName)) THEN excluded.display_name
                    ELSE family.profiles.display_name END,
                first_name = CASE WHEN \(set(.firstName)) THEN excluded.first_name
                    ELSE family.profiles.first_name END,
                last_name = CASE WHEN \(set(.lastName)) THEN excluded.last_name
                    ELSE family.profiles.last_name END,
                avatar_url = CASE WHEN \(set(.avatarURL)) THEN excluded.avatar_url
                    ELSE family.profiles.avatar_url END,
                bio = CASE WHEN \(set(.bio)) THEN excluded.bio ELSE family.profiles.bio END,
                updated_at = excluded.updated_at
            """)
        return try await read(userID, on: tx)
    }

    /// Deletes `userID`'s profile.
    static func delete(_ userID: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.profiles WHERE user_id = \(userID)::uuid")
    }
}
