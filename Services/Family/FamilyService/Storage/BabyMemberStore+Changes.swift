import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The writes of `family.baby_members` (joining, leaving, removal, an account's deletion) and the member
/// list.
extension BabyMemberStore {
    /// One member as the member list shows them.
    struct Member: Sendable, Equatable {
        let user: UserID
        let displayName: String
        let role: BabyRole
        let relationship: BabyRelationship
        let joinedAt: Date
    }

    /// Makes `user` a member of `profile` as `role`; false, changing nothing, when they already are one.
    static func insert(
        _ user: UserID, into profile: BabyProfileID, as role: BabyRole, _ relationship: BabyRelationship,
        now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            INSERT INTO family.baby_members
                (profile_id, user_id, role, relationship, relationship_other, joined_at)
            VALUES (\(profile)::uuid, \(user)::uuid, \(role.rawValue)::smallint,
                \(Int(relationship.kind.rawValue))::smallint, \(relationship.other), \(now))
            ON CONFLICT (profile_id, user_id) DO NOTHING
            RETURNING user_id
            """
        ).isEmpty
    }

    /// Makes the follower `user` an owner of `profile`, related to the baby as `relationship` (an owner's).
    static func promote(
        _ user: UserID, in profile: BabyProfileID, as relationship: BabyRelationship,
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.baby_members SET role = \(BabyRole.owner.rawValue)::smallint,
                relationship = \(Int(relationship.kind.rawValue))::smallint, relationship_other = ''
            WHERE profile_id = \(profile)::uuid AND user_id = \(user)::uuid
            """)
    }

    /// Ends `user`'s membership of `profile`.
    static func remove(_ user: UserID, from profile: BabyProfileID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            "DELETE FROM family.baby_members WHERE profile_id = \(profile)::uuid AND user_id = \(user)::uuid")
    }

    /// A deleted account's memberships go; a profile left with no owner is deactivated (nobody reads or
    /// writes it; its data stays until the retention purge, counting from now). One statement.
    static func forget(_ user: UserID, now: Date, in tx: PostgresTransaction) async throws {
        // The statement's subqueries see the table as it was before the DELETE, hence `user_id <> user`.
        try await tx.query(
            """
            WITH gone AS (
                DELETE FROM family.baby_members WHERE user_id = \(user)::uuid RETURNING profile_id, role
            )
            UPDATE family.baby_profiles p SET active = false, deleted_at = \(now), updated_at = \(now)
            WHERE p.profile_id IN (
                    SELECT profile_id FROM gone WHERE role = \(BabyRole.owner.rawValue)::smallint)
                AND NOT EXISTS (
                    SELECT 1 FROM family.baby_members m
                    WHERE m.profile_id = p.profile_id AND m.role = \(BabyRole.owner.rawValue)::smallint
                        AND m.user_id <> \(user)::uuid)
            """)
    }

    /// `profile`'s members after `position`: owners first, then followers, each in the order they joined; its
    /// rows are `member`'s. For a member's read, which checks membership in the same statement
    /// (`BabyMemberStore.readAsMember`).
    static func page(of profile: BabyProfileID, after position: BabyMemberPosition<IDKind.User>?, limit: Int)
        -> PostgresQuery
    {
        """
        SELECT m.user_id, coalesce(u.display_name, ''), m.role, m.relationship, m.relationship_other,
            m.joined_at
        FROM family.baby_members m LEFT JOIN family.profiles u ON u.user_id = m.user_id
        WHERE m.profile_id = \(profile)::uuid AND (\(position == nil) OR (m.role, m.joined_at, m.user_id)
            > (\(position?.role.rawValue)::smallint, \(position?.joinedAt), \(position?.id)::uuid))
        ORDER BY m.role, m.joined_at, m.user_id
        LIMIT \(limit)
        """
    }

    /// A member from the columns `page` selects.
    static func member(_ row: PostgresRow) throws -> Member {
        Member(
            user: try row.decode(UserID.self, column: 0), displayName: try row.decode(String.self, column: 1),
            role: BabyRole(rawValue: try row.decode(Int.self, column: 2)) ?? .follower,
            relationship: BabyRelationship(
                kind: Kindred_Family_V1_Relationship(rawValue: Int32(try row.decode(Int.self, column: 3))),
                other: try row.decode(String.self, column: 4)),
            joinedAt: try row.decode(Date.self, column: 5))
    }
}
