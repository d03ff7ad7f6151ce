@testable import FamilyService
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Invitations over the wire: the mailed single-use link, its 7 days, resend and revoke, and who may redeem it.
@Suite struct BabyInvitationTests {
    @Test func aGrandmotherAcceptsWithHerRelationshipAndJoiningIsRecorded() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum, name: "Ada")
            let invitation = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            #expect(invitation.state == .pending && invitation.role == .follower)
            let mail = try #require(try await stack.familyMail.mail(to: gran.email).last)
            #expect(mail.kind == "baby_invitation" && mail.body.contains("Ada"))
            let storedHashes = try await stack.pool.query(
                "SELECT count(*)::int FROM family.baby_invitations WHERE token_hash = \(mail.tokenLines[0])::bytea")
            #expect(try storedHashes[0].decode(Int.self, column: 0) == 0, "the token itself is not stored")

            let joined = try await stack.acceptNewestLink(gran, relationship: .other, other: "Nana")
            #expect(joined.profileID == profile.profileID && joined.role == .follower)
            let members = try await stack.members(of: profile.profileID, as: gran)
            #expect(members.map(\.userID) == [mum.id, gran.id])
            #expect(members[1].relationship == .other && members[1].relationshipOther == "Nana")
            let activity = try await stack.pool.query(
                """
                SELECT kind::int, actor_id::text, detail FROM family.baby_activity
                WHERE profile_id = \(profile.profileID)::uuid
                """)
            let entries = try activity.map { row in
                let (kind, actor, detail) = try row.decode((Int, String, String).self)
                return "\(kind) \(actor) \(detail)"
            }
            #expect(entries == ["\(BabyActivityKind.memberJoined.rawValue) \(gran.id) Nana"])
            let listed = try await stack.family.listBabyProfileInvitations(
                .init(profileID: profile.profileID), options: mum.bearer)
            #expect(listed.invitations.map(\.state) == [.accepted])
            #expect(listed.invitations.first?.acceptedByUserID == gran.id)

            let again = try await stack.acceptNewestLink(gran)
            #expect(again.profileID == profile.profileID)
        }
    }

    @Test func aLinkWorksForSevenDaysThenSaysItExpired() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            stack.clock.advance(seconds: 7 * 24 * 3_600 + 1)
            let expired = await rpcError { try await stack.acceptNewestLink(gran) }
            #expect(expired?.code == .failedPrecondition && expired?.reason == "LINK_EXPIRED")
            let listed = try await stack.family.listBabyProfileInvitations(
                .init(profileID: profile.profileID), options: mum.bearer)
            #expect(listed.invitations.map(\.state) == [.expired])
            #expect(try await stack.members(of: profile.profileID, as: mum).count == 1)
        }
    }

    @Test func aLinkJustInsideItsSevenDaysStillWorks() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            stack.clock.advance(seconds: 7 * 24 * 3_600 - 1)
            #expect(try await stack.acceptNewestLink(gran).role == .follower)
        }
    }

    @Test func aForwardedLinkIsRefusedWithoutSayingWhoWasInvited() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran, neighbour) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66),
                try await stack.register("neighbour", age: 50)
            )
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let token = try await stack.familyMail.token(to: gran.email)
            let refused = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: token, relationship: .familyFriend), options: neighbour.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "INVITATION_FOR_ANOTHER_ACCOUNT")
            #expect(refused?.message.contains("gran") == false)
            #expect(try await stack.members(of: profile.profileID, as: mum).count == 1)
            #expect(try await stack.acceptNewestLink(gran).role == .follower, "the link still works for her")
        }
    }

    /// Identity signs in no account before its email is verified, but an account changing its address holds
    /// tokens with the new one unverified: the rule is tested with identity's answer given.
    @Test func anAccountThatHasNotVerifiedTheInvitedAddressIsAskedToVerifyIt() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let unverified = BabyProfiles(
                database: stack.pool, clock: stack.context.clock, mail: stack.context.mail,
                membership: BabyMembership(database: stack.pool), account: { _ in (gran.email, false) })
            let token = try await stack.familyMail.token(to: gran.email)
            let refused = await rpcError {
                try await unverified.accept(
                    token: token, relationship: .grandma, other: "", by: try #require(UserID(gran.id)))
            }
            #expect(refused?.code == .failedPrecondition && refused?.reason == "EMAIL_NOT_VERIFIED")
            #expect(try await stack.members(of: profile.profileID, as: mum).count == 1)
        }
    }

    @Test func aResendMailsANewLinkForSevenDaysMoreAndKillsTheOldOne() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            let invitation = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let oldToken = try await stack.familyMail.token(to: gran.email)
            stack.clock.advance(seconds: 6 * 24 * 3_600)
            let resent = try await stack.family.resendBabyProfileInvitation(
                .init(profileID: profile.profileID, invitationID: invitation.invitationID), options: mum.bearer)
            #expect(resent.invitation?.state == .pending)
            #expect(
                (resent.invitation?.expiresAt?.seconds ?? 0) - (invitation.expiresAt?.seconds ?? 0)
                    == 6 * 24 * 3_600)
            let old = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: oldToken, relationship: .grandma), options: gran.bearer)
            }
            #expect(old?.code == .notFound && old?.reason == "LINK_UNKNOWN")
            stack.clock.advance(seconds: 3 * 24 * 3_600)
            #expect(try await stack.acceptNewestLink(gran).role == .follower, "the new link outlives the old one")
        }
    }

    @Test func aRevokedLinkNoLongerWorksAndRevokingAgainChangesNothing() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            let invitation = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let ids = Kindred_Family_V1_RevokeBabyProfileInvitationRequest(
                profileID: profile.profileID, invitationID: invitation.invitationID)
            let revoked = try await stack.family.revokeBabyProfileInvitation(ids, options: mum.bearer)
            #expect(revoked.invitation?.state == .revoked)
            let again = try await stack.family.revokeBabyProfileInvitation(ids, options: mum.bearer)
            #expect(again.invitation?.state == .revoked)
            let refused = await rpcError { try await stack.acceptNewestLink(gran) }
            #expect(refused?.code == .failedPrecondition && refused?.reason == "INVITATION_REVOKED")
            let resend = await rpcError {
                try await stack.family.resendBabyProfileInvitation(
                    .init(profileID: profile.profileID, invitationID: invitation.invitationID), options: mum.bearer)
            }
            #expect(resend?.reason == "INVITATION_REVOKED")
        }
    }

    @Test func aRetriedInvitationMailsOnceAndARequestIDReusedForAnotherAddressIsRefused() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum)
            let first = try await stack.invite("gran@example.com", to: profile.profileID, by: mum, requestID: "r1")
            let retry = try await stack.invite("GRAN@example.com", to: profile.profileID, by: mum, requestID: "r1")
            #expect(first.invitationID == retry.invitationID)
            #expect(try await stack.familyMail.mail(to: "gran@example.com").count == 1)
            let reused = await rpcError {
                try await stack.invite("aunt@example.com", to: profile.profileID, by: mum, requestID: "r1")
            }
            #expect(reused?.code == .invalidArgument && reused?.reason == "REQUEST_ID_REUSED")
        }
    }

    @Test func aNewInvitationToTheSameAddressEndsTheOlderLink() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum, requestID: "r1")
            let oldToken = try await stack.familyMail.token(to: gran.email)
            stack.clock.advance(seconds: 1)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum, requestID: "r2")
            let old = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: oldToken, relationship: .grandma), options: gran.bearer)
            }
            #expect(old?.reason == "LINK_EXPIRED")
            let states = try await stack.family.listBabyProfileInvitations(
                .init(profileID: profile.profileID), options: mum.bearer
            ).invitations.map(\.state)
            #expect(states == [.pending, .expired])
        }
    }

    @Test func invitationsAndAcceptanceNameEveryBadField() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (try await stack.register("mum", age: 31), try await stack.register("gran", age: 66))
            let invite = await rpcError {
                try await stack.family.inviteToBabyProfile(
                    .init(requestID: "", profileID: "not-an-id", email: "gran", role: .unspecified),
                    options: mum.bearer)
            }
            #expect(invite?.code == .invalidArgument)
            #expect(invite?.badFields == ["request_id", "profile_id", "email", "role"])
            let accept = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: "", relationship: .other, relationshipOther: ""), options: gran.bearer)
            }
            #expect(accept?.badFields == ["token", "relationship_other"])

            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let token = try await stack.familyMail.token(to: gran.email)
            let noRelationship = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(.init(token: token), options: gran.bearer)
            }
            #expect(noRelationship?.code == .invalidArgument && noRelationship?.badFields == ["relationship"])
            #expect(try await stack.members(of: profile.profileID, as: mum).count == 1)
        }
    }
}
