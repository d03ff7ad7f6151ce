import KindredHandlers
import KindredPostgres

/// The names an activity entry's notices show (its actor's and its profile's), read before the entry is
/// written, so that the entry, its notices and its feed line can all go out with the COMMIT.
extension BabyActivityStore {
    /// `user`'s role on `profile` (active), holding the membership (`FOR SHARE`, as `BabyMemberStore.holdRole`)
    /// until `tx` ends, and the names the entries `user` records show; nil when they are not a member.
    static func holdAuthor(
        _ user: UserID, of profile: BabyProfileID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> ActivityAuthor? {
        try await tx.query(authorHold(user, of: profile)).first.flatMap {
            try author($0, of: profile, seals: seals)
        }
    }

    /// The SELECT of `holdAuthor`, for a write that holds its author in the same statement (a CTE): its
    /// thirteen columns (`nameColumns`, then the role) come first in that statement's answer, for `author`.
    static func authorHold(_ user: UserID, of profile: BabyProfileID) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: nameColumns), m.role
        FROM family.baby_members m
        JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
        LEFT JOIN family.profiles a ON a.user_id = m.user_id
        \(unsafeSQL: namesakeJoin)
        WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(user)::uuid
        FOR SHARE OF m
        """
    }

    /// The author a row's first thirteen columns (`authorHold`'s) describe.
    static func author(_ row: PostgresRow, of profile: BabyProfileID, seals: BabySeals) throws
        -> ActivityAuthor?
    {
        guard let role = BabyRole(rawValue: try row.decode(Int.self, column: 12)) else { return nil }
        return ActivityAuthor(role: role, names: try names(row, of: profile, seals: seals))
    }

    /// `actor`'s and `profile`'s names as notices show them, while `profile` is active; nil otherwise.
    static func names(
        of actor: UserID, on profile: BabyProfileID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> ActivityNames? {
        let rows = try await tx.query(
            """
            SELECT \(unsafeSQL: nameColumns)
            FROM family.baby_profiles p
            LEFT JOIN family.profiles a ON a.user_id = \(actor)::uuid
            \(unsafeSQL: namesakeJoin)
            WHERE p.profile_id = \(profile)::uuid AND p.active
            """)
        return try rows.first.map { try names($0, of: profile, seals: seals) }
    }
}
