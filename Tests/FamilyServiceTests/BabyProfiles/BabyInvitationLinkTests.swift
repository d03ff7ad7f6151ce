@testable import FamilyService
import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// An invitation's link over the wire: single-use, 7 days, replaced by a resend or a newer invitation,
/// ended by a revoke, mailed once however often the invitation is retried.
@Suite struct BabyInvitationLinkTests {
    @Test func aLinkWorksForSevenDaysThenSaysItExpired() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
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
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum)
            _ = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            stack.clock.advance(seconds: 7 * 24 * 3_600 - 1)
            #expect(try await stack.acceptNewestLink(gran).role == .follower)
        }
    }

    @Test func aResendMailsANewLinkForSevenDaysMoreAndKillsTheOldOne() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum)
            let invitation = try await stack.invite(gran.email, to: profile.profileID, by: mum)
            let oldToken = try await stack.familyMail.token(to: gran.email)
            stack.clock.advance(seconds: 6 * 24 * 3_600)
            let resent = try await stack.family.resendBabyProfileInvitation(
                .init(profileID: profile.profileID, invitationID: invitation.invitationID),
                options: mum.bearer)
            #expect(resent.invitation?.state == .pending)
            #expect(
                try #require(resent.invitation?.expiresAt).timeIntervalSince(
                    try #require(invitation.expiresAt))
                    == 6 * 24 * 3_600)
            let old = await rpcError {
                try await stack.family.acceptBabyProfileInvitation(
                    .init(token: oldToken, relationship: .grandma), options: gran.bearer)
            }
            #expect(old?.code == .notFound && old?.reason == "LINK_UNKNOWN")
            stack.clock.advance(seconds: 3 * 24 * 3_600)
            #expect(
                try await stack.acceptNewestLink(gran).role == .follower, "the new link outlives the old one")
        }
    }

    @Test func aRevokedLinkNoLongerWorksAndRevokingAgainChangesNothing() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
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
                    .init(profileID: profile.profileID, invitationID: invitation.invitationID),
                    options: mum.bearer)
            }
            #expect(resend?.reason == "INVITATION_REVOKED")
        }
    }

    @Test func aRetriedInvitationMailsOnceAndARequestIDReusedForAnotherAddressIsRefused() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum)
            let first = try await stack.invite(
                "gran@example.com", to: profile.profileID, by: mum, requestID: "r1")
            let retry = try await stack.invite(
                "GRAN@example.com", to: profile.profileID, by: mum, requestID: "r1")
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
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
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

    @Test func ownersMailAtMostThirtyInvitationsADayAndTheSameOneAgainAfterTenMinutes() async throws {
        // On a whole second, so that the waits come out in whole seconds.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        try await FamilyTestStack.with(clock: TestClock(at: start)) { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum)
            var first: Kindred_Family_V1_BabyInvitation?
            for index in 0..<BabyProfiles.invitationsPerDay {
                let invitation = try await stack.invite(
                    "guest\(index)@example.com", to: profile.profileID, by: mum)
                first = first ?? invitation
                stack.clock.advance(seconds: 60)
            }
            let tooMany = await rpcError {
                try await stack.invite("one-more@example.com", to: profile.profileID, by: mum)
            }
            #expect(tooMany?.code == .resourceExhausted && tooMany?.reason == "INVITATIONS_RATE_LIMITED")
            #expect(tooMany?.retryDelay == .seconds(24 * 3_600 - 30 * 60))

            stack.clock.advance(seconds: 24 * 3_600 - 30 * 60)
            let ids = Kindred_Family_V1_ResendBabyProfileInvitationRequest(
                profileID: profile.profileID, invitationID: first?.invitationID ?? "")
            _ = try await stack.family.resendBabyProfileInvitation(ids, options: mum.bearer)
            stack.clock.advance(seconds: 9 * 60)
            let tooSoon = await rpcError {
                try await stack.family.resendBabyProfileInvitation(ids, options: mum.bearer)
            }
            #expect(tooSoon?.reason == "INVITATIONS_RATE_LIMITED" && tooSoon?.retryDelay == .seconds(60))
        }
    }
}
