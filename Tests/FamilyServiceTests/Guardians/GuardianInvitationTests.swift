@testable import FamilyService
import Foundation
import KindredAuth
import KindredRuntime
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `InviteGuardian`: who may invite, what is mailed, retries, the two-guardian limit and the rate limits.
@Suite struct GuardianInvitationTests {
    @Test func aMinorsInvitationMailsASingleUseLinkValidForSevenDays() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor(.sixteenToSeventeen)
            _ = try await rules.profiles.update(
                mask: ["display_name"], to: .init(displayName: "Mia"), as: mia)
            let (invitation, token) = try await rules.invite("dad@example.com", from: mia)
            #expect(invitation.minorID == mia.accountUserID && invitation.guardianEmail == "dad@example.com")
            #expect(invitation.expiresAt == rules.clock.now.addingTimeInterval(7 * 24 * 3_600))
            let mail = try #require(
                try await TestMailbox(pool, schema: "family").mail(to: "dad@example.com").first)
            #expect(mail.kind == "guardian_invitation" && mail.body.contains("Mia"))
            #expect(mail.body.contains("https://kindred.test/app/guardian-invitation?token=\(token)"))
            let hashes = try await pool.query("SELECT token_hash FROM family.guardian_invitations").map {
                try $0.decode([UInt8].self, column: 0)
            }
            #expect(hashes == [OpaqueToken(text: token).storageHash])
        }
    }

    @Test func onlyAMinorMayInvite() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            for caller in [FamilyCallers.adult(), FamilyCallers.service] {
                let error = await rpcError { try await rules.invite("dad@example.com", from: caller) }
                #expect(error?.code == .permissionDenied && error?.reason == "INVITER_MUST_BE_MINOR")
            }
            let mail = try await TestMailbox(pool, schema: "family").all()
            #expect(mail.isEmpty)
        }
    }

    @Test func aMinorWhoseControlsWereSwitchedOffAtEighteenCannotInviteWithAnOldToken() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor(.sixteenToSeventeen)
            try await pool.transaction { tx in
                try await ControlsLifecycleStore.createForMinor(mia.accountUserID!, now: Date(), in: tx)
                try await ControlsLifecycleStore.switchOff(mia.accountUserID!, now: Date(), in: tx)
            }
            let error = await rpcError { try await rules.invite("dad@example.com", from: mia) }
            #expect(error?.reason == "INVITER_MUST_BE_MINOR")
        }
    }

    @Test func aRetryWithTheSameRequestIDReturnsTheFirstInvitationAndMailsOnce() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            let first = try await rules.guardians.invite(email: "mum@example.com", requestID: "r-1", as: mia)
            rules.clock.advance(seconds: 5)
            let again = try await rules.guardians.invite(email: "MUM@example.com", requestID: "r-1", as: mia)
            #expect(again == first)
            #expect(try await TestMailbox(pool, schema: "family").all().count == 1)
            let reused = await rpcError {
                try await rules.guardians.invite(email: "gran@example.com", requestID: "r-1", as: mia)
            }
            #expect(reused?.code == .invalidArgument && reused?.reason == "REQUEST_ID_REUSED")
        }
    }

    @Test(arguments: [
        ("", "r-1", ["guardian_email"]), ("dad", "r-1", ["guardian_email"]),
        ("dad@localhost", "r-1", ["guardian_email"]),
        ("dad@example.com\r\nBcc: x@example.com", "r-1", ["guardian_email"]),
        ("dad@example.com", "", ["request_id"]),
        ("dad@", "has space", ["request_id", "guardian_email"]),
    ])
    func malformedFieldsAreNamed(_ email: String, _ requestID: String, _ fields: [String]) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await GuardianRules(pool).guardians.invite(
                    email: email, requestID: requestID, as: FamilyCallers.minor())
            }
            #expect(error?.code == .invalidArgument && error?.badFields == fields)
        }
    }

    @Test func aMinorWithTwoGuardiansCannotInviteAThird() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            try await rules.link(FamilyCallers.adult(), to: mia)
            try await rules.link(FamilyCallers.adult(), to: mia)
            let error = await rpcError { try await rules.invite("gran@example.com", from: mia) }
            #expect(error?.code == .failedPrecondition && error?.reason == "GUARDIAN_LIMIT_REACHED")
        }
    }

    @Test func theSameAddressIsInvitedAgainOnlyAfterTenMinutesAndOnlyTheNewestLinkWorks() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            let (_, old) = try await rules.invite("dad@example.com", from: mia)
            rules.clock.advance(seconds: 9 * 60)
            let tooSoon = await rpcError { try await rules.invite("Dad@Example.com", from: mia) }
            #expect(tooSoon?.code == .resourceExhausted && tooSoon?.reason == "INVITATIONS_RATE_LIMITED")
            #expect(tooSoon?.retryDelay == .seconds(60))
            _ = try await rules.invite("mum@example.com", from: mia)
            rules.clock.advance(seconds: 60)
            let (_, new) = try await rules.invite("dad@example.com", from: mia)
            let stale = await rpcError {
                try await rules.guardians.accept(token: old, as: FamilyCallers.adult())
            }
            #expect(stale?.reason == "LINK_EXPIRED")
            _ = try await rules.guardians.accept(token: new, as: FamilyCallers.adult())
        }
    }

    @Test func atMostTenInvitationsADay() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            for index in 0..<10 {
                _ = try await rules.invite("person\(index)@example.com", from: mia)
                rules.clock.advance(seconds: 3_600)
            }
            let eleventh = await rpcError { try await rules.invite("person10@example.com", from: mia) }
            #expect(eleventh?.code == .resourceExhausted && eleventh?.retryDelay == .seconds(14 * 3_600))
            rules.clock.advance(seconds: 14 * 3_600)
            _ = try await rules.invite("person10@example.com", from: mia)
        }
    }
}
