import KindredHandlers
import KindredPostgres

extension BabyMemberStore {
    /// Which of the users in `watchers` belong to their profile, while it is active: one probe of the
    /// (profile, user) key per pair, in one statement. The live streams ask it once per batch of entries, for
    /// every profile of the batch watched here and all their users together.
    static func members(among watchers: [BabyProfileID: Set<UserID>], on db: some StatementRunner)
        async throws -> [BabyProfileID: Set<UserID>]
    {
        let pairs = watchers.flatMap { profile, users in users.map { (profile, $0) } }
        guard !pairs.isEmpty else { return [:] }
        // LATERAL with LIMIT keeps a key probe per pair, whatever the planner guesses of the arrays' length.
        let rows = try await db.pureRead(
            """
            SELECT w.profile_id, w.user_id
            FROM unnest(\(PostgresArray(pairs.map(\.0)))::uuid[], \(PostgresArray(pairs.map(\.1)))::uuid[])
                AS w(profile_id, user_id)
            CROSS JOIN LATERAL (
                SELECT FROM family.baby_members m
                JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
                WHERE m.profile_id = w.profile_id AND m.user_id = w.user_id LIMIT 1) found
            """)
        var members: [BabyProfileID: Set<UserID>] = [:]
        for row in rows {
            members[try row.decode(BabyProfileID.self, column: 0), default: []].insert(
                try row.decode(UserID.self, column: 1))
        }
        return members
    }
}
