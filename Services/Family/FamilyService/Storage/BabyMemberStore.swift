import KindredHandlers
import KindredPostgres

/// The SQL of `family.baby_members` as every part of baby profiles asks it: who belongs, and as what.
enum BabyMemberStore {
    /// `user`'s role on `profile`; nil when they are not a member or the profile is deactivated (no owner's
    /// account remains). One probe of the (profile, user) primary key and the profile's row.
    static func role(of user: UserID, in profile: BabyProfileID, on db: some StatementRunner) async throws
        -> BabyRole?
    {
        let rows = try await db.pureRead(role(of: user, in: profile))
        return try rows.first.flatMap { BabyRole(rawValue: try $0.decode(Int.self, column: 0)) }
    }

    /// The SELECT of `role`, for a read that asks more at once (an upload's admission).
    static func role(of user: UserID, in profile: BabyProfileID) -> PostgresQuery {
        """
        SELECT m.role FROM family.baby_members m
        JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
        WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(user)::uuid
        """
    }

    /// Whether `user` and `other` are members of one active profile: `user`'s memberships by the by-user
    /// index, then a probe of the (profile, user) primary key for `other` on each.
    static func share(_ user: UserID, with other: UserID, on db: some StatementRunner) async throws -> Bool {
        try await !db.pureRead(
            """
            SELECT 1 FROM family.baby_members a
            JOIN family.baby_members b ON b.profile_id = a.profile_id AND b.user_id = \(other)::uuid
            JOIN family.baby_profiles p ON p.profile_id = a.profile_id AND p.active
            WHERE a.user_id = \(user)::uuid
            LIMIT 1
            """
        ).isEmpty
    }

    /// `user`'s role on `profile`, holding the membership (`FOR SHARE`) until `tx` ends, so that a member
    /// removed at the same moment cannot still write through a check that passed.
    static func holdRole(of user: UserID, in profile: BabyProfileID, tx: PostgresTransaction) async throws
        -> BabyRole?
    {
        let rows = try await tx.query(
            """
            SELECT m.role FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(user)::uuid
            FOR SHARE OF m
            """)
        return try rows.first.flatMap { BabyRole(rawValue: try $0.decode(Int.self, column: 0)) }
    }

    /// The active profiles `user` belongs to with their role: owned first, then followed.
    static func memberships(of user: UserID, on db: some StatementRunner) async throws
        -> [(profile: BabyProfileID, role: BabyRole)]
    {
        try await db.pureRead(
            """
            SELECT m.profile_id, m.role FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            WHERE m.user_id = \(user)::uuid ORDER BY m.role, m.joined_at, m.profile_id
            """
        ).compactMap { row in
            guard let role = BabyRole(rawValue: try row.decode(Int.self, column: 1)) else { return nil }
            return (try row.decode(BabyProfileID.self, column: 0), role)
        }
    }

    /// The SELECT of the ids of the active profiles `user` belongs to, for a statement over all of them (the
    /// home's activity page): the by-user index, then a probe of each profile.
    static func activeProfiles(of user: UserID) -> PostgresQuery {
        """
        SELECT m.profile_id FROM family.baby_members m
        JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
        WHERE m.user_id = \(user)::uuid
        """
    }

    /// The user ids of `profile`'s members with `role` (every member when nil), oldest first.
    static func memberIDs(of profile: BabyProfileID, role: BabyRole? = nil, on db: some StatementRunner)
        async throws -> [UserID]
    {
        try await db.pureRead(
            """
            SELECT user_id FROM family.baby_members
            WHERE profile_id = \(profile)::uuid AND (\(role?.rawValue)::smallint IS NULL
                OR role = \(role?.rawValue)::smallint)
            ORDER BY joined_at, user_id
            """
        ).map { try $0.decode(UserID.self, column: 0) }
    }
}
