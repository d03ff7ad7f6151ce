@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Owners and followers over the wire: at most two owners, the last one cannot leave, owners remove
/// followers and nobody removes an owner.
@Suite struct BabyMemberTests {
    @Test func aSecondOwnerJoinsByInvitationAndAThirdIsRefusedWhenInvitedAndWhenAccepting() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, dad, uncle) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33),
                try await stack.register("uncle", age: 40)
            )
            let profile = try await stack.createBaby(mum, name: "Ada")
            _ = try await stack.invite(dad.email, to: profile.profileID, as: .owner, by: mum)
            _ = try await stack.invite(uncle.email, to: profile.profileID, as: .owner, by: mum)
            #expect(try await stack.acceptNewestLink(dad, relationship: .father).role == .owner)

            let third = await rpcError { try await stack.acceptNewestLink(uncle, relationship: .parent) }
            #expect(third?.code == .failedPrecondition && third?.reason == "OWNER_LIMIT_REACHED")
            #expect(third?.metadata["max_owners"] == "2")
            let invited = await rpcError {
                try await stack.invite("other@example.com", to: profile.profileID, as: .owner, by: dad)
            }
            #expect(invited?.reason == "OWNER_LIMIT_REACHED")
            let members = try await stack.members(of: profile.profileID, as: dad)
            #expect(members.map(\.userID) == [mum.id, dad.id] && members.allSatisfy { $0.role == .owner })
        }
    }

    @Test func twoOwnerInvitationsAcceptedAtOnceMakeExactlyOneCoOwner() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, dad, uncle) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33),
                try await stack.register("uncle", age: 40)
            )
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(dad.email, to: profile.profileID, as: .owner, by: mum)
            _ = try await stack.invite(uncle.email, to: profile.profileID, as: .owner, by: mum)
            async let dadAccepts = rpcError { try await stack.acceptNewestLink(dad, relationship: .father) }
            async let uncleAccepts = rpcError {
                try await stack.acceptNewestLink(uncle, relationship: .parent)
            }
            let answers = await [dadAccepts, uncleAccepts]
            #expect(answers.compactMap { $0?.reason } == ["OWNER_LIMIT_REACHED"])
            #expect(try await stack.members(of: profile.profileID, as: mum).count == 2)
        }
    }

    @Test func theSoleOwnerCannotLeaveButOneOfTwoCanAndFollowersLeaveAnyTime() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, dad, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33),
                try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum)
            try await stack.join(gran, profile.profileID, by: mum)
            let alone = await rpcError {
                try await stack.family.leaveBabyProfile(
                    .init(profileID: profile.profileID), options: mum.bearer)
            }
            #expect(alone?.code == .failedPrecondition && alone?.reason == "SOLE_OWNER")

            try await stack.join(dad, profile.profileID, as: .owner, by: mum)
            _ = try await stack.family.leaveBabyProfile(
                .init(profileID: profile.profileID), options: mum.bearer)
            let dadAlone = await rpcError {
                try await stack.family.leaveBabyProfile(
                    .init(profileID: profile.profileID), options: dad.bearer)
            }
            #expect(dadAlone?.reason == "SOLE_OWNER")
            _ = try await stack.family.leaveBabyProfile(
                .init(profileID: profile.profileID), options: gran.bearer)
            #expect(try await stack.members(of: profile.profileID, as: dad).map(\.userID) == [dad.id])
            let gone = await rpcError {
                try await stack.family.getBabyProfile(
                    .init(profileID: profile.profileID), options: mum.bearer)
            }
            #expect(gone?.reason == "BABY_PROFILE_NOT_FOUND")
        }
    }

    @Test func twoOwnersLeavingAtOnceLeaveOneBehind() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, dad) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33)
            )
            let profile = try await stack.createBaby(mum)
            try await stack.join(dad, profile.profileID, as: .owner, by: mum)
            let request = Kindred_Family_V1_LeaveBabyProfileRequest(profileID: profile.profileID)
            async let mumLeaves = rpcError {
                try await stack.family.leaveBabyProfile(request, options: mum.bearer)
            }
            async let dadLeaves = rpcError {
                try await stack.family.leaveBabyProfile(request, options: dad.bearer)
            }
            let answers = await [mumLeaves, dadLeaves]
            #expect(answers.compactMap { $0?.reason } == ["SOLE_OWNER"])
        }
    }

    @Test func ownersRemoveFollowersButNoOneRemovesAnOwner() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, dad, gran, aunt) = (
                try await stack.register("mum", age: 31), try await stack.register("dad", age: 33),
                try await stack.register("gran", age: 66), try await stack.register("aunt", age: 35)
            )
            let profile = try await stack.createBaby(mum)
            try await stack.join(dad, profile.profileID, as: .owner, by: mum)
            try await stack.join(gran, profile.profileID, by: mum)
            try await stack.join(aunt, profile.profileID, by: mum)
            func remove(_ user: TestUser, by caller: TestUser) async -> RPCError? {
                await rpcError {
                    try await stack.family.removeBabyProfileMember(
                        .init(profileID: profile.profileID, userID: user.id), options: caller.bearer)
                }
            }
            #expect(await remove(dad, by: mum)?.reason == "CANNOT_REMOVE_OWNER")
            #expect(await remove(aunt, by: gran)?.reason == "BABY_PROFILE_OWNERS_ONLY")
            #expect(await remove(gran, by: dad) == nil)
            #expect(await remove(gran, by: dad)?.reason == "BABY_MEMBER_NOT_FOUND")
            let members = try await stack.members(of: profile.profileID, as: aunt)
            #expect(members.map(\.userID) == [mum.id, dad.id, aunt.id])
            let granAsks = await rpcError {
                try await stack.family.getBabyProfile(
                    .init(profileID: profile.profileID), options: gran.bearer)
            }
            #expect(granAsks?.reason == "BABY_PROFILE_NOT_FOUND")
        }
    }

    @Test func followersAreRefusedEveryInvitationAction() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum)
            try await stack.join(gran, profile.profileID, by: mum)
            stack.clock.advance(seconds: 1)
            let invitation = try await stack.invite("aunt@example.com", to: profile.profileID, by: mum)
            let ids = (profileID: profile.profileID, invitationID: invitation.invitationID)
            let answers = [
                await rpcError { try await stack.invite("x@example.com", to: profile.profileID, by: gran) },
                await rpcError {
                    try await stack.family.listBabyProfileInvitations(
                        .init(profileID: profile.profileID), options: gran.bearer)
                },
                await rpcError {
                    try await stack.family.resendBabyProfileInvitation(
                        .init(profileID: ids.profileID, invitationID: ids.invitationID), options: gran.bearer)
                },
                await rpcError {
                    try await stack.family.revokeBabyProfileInvitation(
                        .init(profileID: ids.profileID, invitationID: ids.invitationID), options: gran.bearer)
                },
            ]
            #expect(answers.map { $0?.reason } == Array(repeating: "BABY_PROFILE_OWNERS_ONLY", count: 4))
            let states = try await stack.family.listBabyProfileInvitations(
                .init(profileID: profile.profileID), options: mum.bearer
            ).invitations.map(\.state)
            #expect(states == [.pending, .accepted])
        }
    }
}
