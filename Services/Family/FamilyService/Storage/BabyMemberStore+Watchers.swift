import KindredHandlers
import KindredPostgres

extension BabyMemberStore {
    /// Which of `users` belong to `profile`, while it is active: one probe of the (profile, user) key per
    /// user, in one statement. The live streams ask it once per entry, for all their users together.
    static func members(among users: [UserID], of profile: BabyProfileID, on db: some StatementRunner)
        async throws -> Set<UserID>
    {
        Set(
            try await db.pureRead(
                """
                SELECT m.user_id FROM family.baby_members m
                JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
                WHERE m.profile_id = \(profile)::uuid AND m.user_id = ANY(\(PostgresArray(users))::uuid[])
                """
            ).map { try $0.decode(UserID.self, column: 0) })
    }
}
