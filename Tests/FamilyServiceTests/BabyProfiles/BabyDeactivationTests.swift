@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Identity's `user.deleted`, consumed as every instance consumes it: the user's memberships go, and a
/// profile left with no owner is deactivated: nobody reads or writes it, and its data stays.
@Suite struct BabyDeactivationTests {
    @Test func aProfileWhoseLastOwnerDeletedTheirAccountIsGoneForItsFollowersButKept() async throws {
        try await FamilyTestStack.withIdentityEvents { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum, name: "Ada")
            try await stack.join(gran, profile.profileID, by: mum)

            _ = try await stack.identity.deleteAccount(.init(password: mum.password), options: mum.bearer)
            try await eventually("the profile is deactivated") {
                await rpcError {
                    try await stack.family.getBabyProfile(
                        .init(profileID: profile.profileID), options: gran.bearer)
                }?.reason == "BABY_PROFILE_NOT_FOUND"
            }
            #expect(try await stack.family.listMyBabyProfiles(.init(), options: gran.bearer).profiles.isEmpty)
            let leave = await rpcError {
                try await stack.family.leaveBabyProfile(
                    .init(profileID: profile.profileID), options: gran.bearer)
            }
            #expect(leave?.reason == "BABY_PROFILE_NOT_FOUND")
            let kept = try await stack.pool.query(
                """
                SELECT p.active, p.name_sealed, (SELECT count(*)::int FROM family.baby_members m
                    WHERE m.profile_id = p.profile_id)
                FROM family.baby_profiles p WHERE p.profile_id = \(profile.profileID)::uuid
                """)
            let (active, sealedName, members) = try kept[0].decode((Bool, [UInt8], Int).self)
            let name = try BabySeals(cipher: TestDataKeys.cipher).open(
                plain: nil, sealed: sealedName, .name, of: try #require(BabyProfileID(profile.profileID)))
            #expect(!active && name == "Ada" && members == 1, "gran's membership and the data stay")
        }
    }

    @Test func aProfileKeepsWorkingWhileAnotherOwnerRemains() async throws {
        try await FamilyTestStack.withIdentityEvents { stack in
            let (mum, dad, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33),
                try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum, name: "Ada")
            try await stack.join(dad, profile.profileID, as: .owner, by: mum)
            try await stack.join(gran, profile.profileID, by: mum)

            _ = try await stack.identity.deleteAccount(.init(password: mum.password), options: mum.bearer)
            try await eventually("mum's membership is gone") {
                try await stack.members(of: profile.profileID, as: gran).map(\.userID) == [dad.id, gran.id]
            }
            let read = try await stack.family.getBabyProfile(
                .init(profileID: profile.profileID), options: gran.bearer)
            #expect(read.profile?.name == "Ada")
            let alone = await rpcError {
                try await stack.family.leaveBabyProfile(
                    .init(profileID: profile.profileID), options: dad.bearer)
            }
            #expect(alone?.reason == "SOLE_OWNER")
        }
    }
}
