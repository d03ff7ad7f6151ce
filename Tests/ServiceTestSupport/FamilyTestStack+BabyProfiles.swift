// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
@testable import FamilyService
import KindredHandlers
import KindredPostgres

extension FamilyTestStack {
    /// A baby profile created by `owner`, with `coOwner` and `followers` already members, written straight to
    /// the tables: tests of calendar, registry, comments and activity need the membership, not the invitation
    /// ceremony (which has its own tests). Returns the profile's id.
    func babyProfile(
        ownedBy owner: TestUser, coOwner: TestUser? = nil, followers: [TestUser] = [], name: String? = nil,
        expectedBirth: Date? = nil
    ) async throws -> BabyProfileID {
        let profile = BabyProfileID(UUIDv7.generateUUID(at: clock.now))
        let now = clock.now
        try await pool.transaction { tx in
            try await tx.query(
                """
                INSERT INTO family.baby_profiles
                    (profile_id, created_by, name, expected_birth_date, created_at, updated_at)
                VALUES (\(profile)::uuid, \(owner.id)::uuid, \(name), \(expectedBirth)::date, \(now), \(now))
                """)
            let members =
                [(owner, BabyRole.owner)] + (coOwner.map { [($0, .owner)] } ?? [])
                + followers.map { ($0, BabyRole.follower) }
            for (offset, (user, role)) in members.enumerated() {
                try await tx.query(
                    """
                    INSERT INTO family.baby_members (profile_id, user_id, role, joined_at)
                    VALUES (\(profile)::uuid, \(user.id)::uuid, \(role.rawValue)::smallint,
                            \(now.addingTimeInterval(Double(offset) / 1000)))
                    """)
            }
        }
        return profile
    }
}
#endif
