@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The baby-profile RPCs as a family walks through them: a profile, an invitation and its mailed token.
extension FamilyTestStack {
    /// A profile `owner` creates through the RPC.
    func createBaby(
        _ owner: TestUser, name: String = "", requestID: String? = nil,
        relationship: Kindred_Family_V1_Relationship = .unspecified
    ) async throws -> Kindred_Family_V1_BabyProfile {
        try #require(
            try await family.createBabyProfile(
                .init(
                    requestID: requestID ?? "create-\(owner.username)-\(name)", name: name,
                    relationship: relationship),
                options: owner.bearer
            ).profile)
    }

    /// `owner` invites `email` to `profile` as `role`.
    func invite(
        _ email: String, to profile: String, as role: Kindred_Family_V1_BabyRole = .follower,
        by owner: TestUser, requestID: String? = nil
    ) async throws -> Kindred_Family_V1_BabyInvitation {
        try #require(
            try await family.inviteToBabyProfile(
                .init(
                    requestID: requestID ?? "invite-\(email)-\(role.rawValue)", profileID: profile,
                    email: email,
                    role: role),
                options: owner.bearer
            ).invitation)
    }

    /// `user` accepts the newest link mailed to them.
    func acceptNewestLink(
        _ user: TestUser, relationship: Kindred_Family_V1_Relationship = .grandma, other: String = ""
    ) async throws -> Kindred_Family_V1_BabyProfile {
        let token = try await familyMail.token(to: user.email)
        return try #require(
            try await family.acceptBabyProfileInvitation(
                .init(token: token, relationship: relationship, relationshipOther: other),
                options: user.bearer
            ).profile)
    }

    /// `user` joins `profile` as `role` by `owner`'s invitation, a follower as grandma, an owner saying
    /// `relationship` (nothing by default).
    func join(
        _ user: TestUser, _ profile: String, as role: Kindred_Family_V1_BabyRole = .follower,
        by owner: TestUser, relationship: Kindred_Family_V1_Relationship = .unspecified
    ) async throws {
        _ = try await invite(user.email, to: profile, as: role, by: owner)
        _ = try await acceptNewestLink(user, relationship: role == .owner ? relationship : .grandma)
    }

    /// `profile`'s members as `user` lists them.
    func members(of profile: String, as user: TestUser) async throws -> [Kindred_Family_V1_BabyMember] {
        try await family.listBabyProfileMembers(.init(profileID: profile), options: user.bearer).members
    }
}
