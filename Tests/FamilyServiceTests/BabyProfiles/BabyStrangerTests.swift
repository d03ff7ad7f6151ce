@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Nobody learns a baby profile exists: a stranger gets, on every call, the answer an id naming nothing gets,
/// and changes nothing.
@Suite struct BabyStrangerTests {
    /// Every profile-scoped call of baby profiles, made by `caller` on `profile` (with `invitation` and
    /// `member` where the call names one).
    static func everyCall(
        on profile: String, invitation: String, member: String, by caller: TestUser, _ stack: FamilyTestStack
    ) async -> [String: RPCError?] {
        let family = stack.family
        let options = caller.bearer
        return [
            "GetBabyProfile": await rpcError {
                try await family.getBabyProfile(.init(profileID: profile), options: options)
            },
            "UpdateBabyProfile": await rpcError {
                try await family.updateBabyProfile(
                    .init(updateMask: ["name"], profile: .init(profileID: profile, name: "Mine")),
                    options: options)
            },
            "DeleteBabyProfile": await rpcError {
                try await family.deleteBabyProfile(.init(profileID: profile), options: options)
            },
            "ListBabyProfileMembers": await rpcError {
                try await family.listBabyProfileMembers(.init(profileID: profile), options: options)
            },
            "LeaveBabyProfile": await rpcError {
                try await family.leaveBabyProfile(.init(profileID: profile), options: options)
            },
            "RemoveBabyProfileMember": await rpcError {
                try await family.removeBabyProfileMember(
                    .init(profileID: profile, userID: member), options: options)
            },
            "InviteToBabyProfile": await rpcError {
                try await family.inviteToBabyProfile(
                    .init(requestID: "sneak", profileID: profile, email: "sneak@example.com", role: .owner),
                    options: options)
            },
            "ListBabyProfileInvitations": await rpcError {
                try await family.listBabyProfileInvitations(.init(profileID: profile), options: options)
            },
            "ResendBabyProfileInvitation": await rpcError {
                try await family.resendBabyProfileInvitation(
                    .init(profileID: profile, invitationID: invitation), options: options)
            },
            "RevokeBabyProfileInvitation": await rpcError {
                try await family.revokeBabyProfileInvitation(
                    .init(profileID: profile, invitationID: invitation), options: options)
            },
        ]
    }

    @Test func aStrangerGetsTheAnswerOfAnUnknownIDOnEveryCallAndChangesNothing() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran, stranger) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66),
                try await stack.register("stranger", age: 40)
            )
            let profile = try await stack.createBaby(mum, name: "Ada")
            try await stack.join(gran, profile.profileID, by: mum)
            let invitation = try await stack.invite("aunt@example.com", to: profile.profileID, by: mum)

            let strangers = await Self.everyCall(
                on: profile.profileID, invitation: invitation.invitationID, member: gran.id, by: stranger,
                stack)
            let unknown = await Self.everyCall(
                on: BabyProfileID.generate(at: stack.clock.now).description,
                invitation: invitation.invitationID,
                member: gran.id, by: stranger, stack)
            #expect(strangers.count == 10)
            for (method, answer) in strangers {
                #expect(answer?.code == .notFound && answer?.reason == "BABY_PROFILE_NOT_FOUND", "\(method)")
                #expect(answer?.message == unknown[method]??.message, "\(method)")
            }
            let forged = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", relationship: .uncle),
                    options: stranger.bearer)
            }
            #expect(forged?.code == .notFound && forged?.reason == "LINK_UNKNOWN")
            #expect(
                try await stack.family.listMyBabyProfiles(.init(), options: stranger.bearer).profiles.isEmpty)

            let after = try await stack.family.getBabyProfile(
                .init(profileID: profile.profileID), options: mum.bearer)
            #expect(after.profile?.name == "Ada")
            #expect(
                try await stack.members(of: profile.profileID, as: mum).map(\.userID) == [mum.id, gran.id])
            let invitations = try await stack.family.listBabyProfileInvitations(
                .init(profileID: profile.profileID), options: mum.bearer)
            #expect(invitations.invitations.count == 2)
            #expect(invitations.invitations.allSatisfy { $0.email != "sneak@example.com" })
        }
    }

    @Test func aServiceTokenIsNoAccountAndCreatesOrListsNothing() async throws {
        try await FamilyTestStack.with { stack in
            let service = try await stack.serviceBearer()
            let create = await rpcError {
                try await stack.family.createBabyProfile(.init(requestID: "svc"), options: service)
            }
            let list = await rpcError { try await stack.family.listMyBabyProfiles(.init(), options: service) }
            #expect(create?.code == .permissionDenied && create?.reason == "ACCOUNT_REQUIRED")
            #expect(list?.code == .permissionDenied && list?.reason == "ACCOUNT_REQUIRED")
        }
    }
}
