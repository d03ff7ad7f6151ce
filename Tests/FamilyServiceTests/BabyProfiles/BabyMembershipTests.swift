import KindredHandlers
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

@Suite struct BabyMembershipTests {
    @Test func aStrangerIsToldTheProfileDoesNotExistAsForAnUnknownID() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let stranger = try await stack.register("stranger", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            let membership = BabyMembership(database: stack.pool)
            let strangerAsks = await rpcError {
                try await membership.requireMember(try #require(UserID(stranger.id)), of: profile)
            }
            let unknownID = await rpcError {
                try await membership.requireMember(
                    try #require(UserID(mum.id)), of: BabyProfileID(UUIDv7.generateUUID(at: stack.clock.now)))
            }
            #expect(strangerAsks?.code == .notFound && strangerAsks?.reason == "BABY_PROFILE_NOT_FOUND")
            #expect(strangerAsks?.message == unknownID?.message && strangerAsks?.reason == unknownID?.reason)
        }
    }

    @Test func aFollowerIsRefusedAnOwnersActionAndAnOwnerPasses() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let membership = BabyMembership(database: stack.pool)
            try await membership.requireOwner(try #require(UserID(mum.id)), of: profile)
            #expect(
                try await membership.requireMember(try #require(UserID(grandma.id)), of: profile) == .follower
            )
            let refused = await rpcError {
                try await membership.requireOwner(try #require(UserID(grandma.id)), of: profile)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
        }
    }

    @Test func aDeactivatedProfileIsGoneForItsMembers() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(profile)::uuid")
            let membership = BabyMembership(database: stack.pool)
            let refused = await rpcError {
                try await membership.requireMember(try #require(UserID(grandma.id)), of: profile)
            }
            #expect(refused?.code == .notFound)
            #expect(try await membership.scope(try #require(UserID(grandma.id)), profile: nil).isEmpty)
        }
    }
}
