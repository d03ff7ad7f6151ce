import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// `GetBabyMembership`, the call other services make before acting on a profile.
@Suite struct BabyMembershipRPCTests {
    @Test func aServiceLearnsEachMembersRoleAndNothingForAStrangerOrAnUnknownProfile() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let stranger = try await stack.register("stranger", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let service = try await stack.serviceBearer()
            func role(_ user: TestUser, _ profileID: String) async throws -> Kindred_Family_V1_BabyRole {
                try await stack.family.getBabyMembership(
                    .init(profileID: profileID, userID: user.id), options: service
                ).role
            }
            #expect(try await role(mum, profile.description) == .owner)
            #expect(try await role(grandma, profile.description) == .follower)
            #expect(try await role(stranger, profile.description) == .unspecified)
            let unknown = BabyProfileID(UUIDv7.generateUUID(at: stack.clock.now))
            #expect(try await role(mum, unknown.description) == .unspecified)
        }
    }

    @Test func aPersonIsRefusedEvenAboutTheirOwnProfile() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            let refused = await rpcError {
                try await stack.family.getBabyMembership(
                    .init(profileID: profile.description, userID: mum.id), options: mum.bearer)
            }
            #expect(refused?.code == .permissionDenied)
        }
    }

    @Test func malformedIdsAreEachNamed() async throws {
        try await FamilyTestStack.with { stack in
            let refused = await rpcError {
                try await stack.family.getBabyMembership(
                    .init(profileID: "nope", userID: ""), options: try await stack.serviceBearer())
            }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.badFields.sorted() == ["profile_id", "user_id"])
        }
    }
}
