@testable import IdentityService
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Email verification")
struct EmailVerificationTests {
    @Test func theMailedTokenVerifiesTheEmailOnceAndEmitsUserEmailVerified() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register()
            let token = try await TestMailbox(pool).token(to: account.email)
            #expect(try await test.accounts.verifyEmail(token: token) == account.id)
            #expect(try await test.accounts.me(TestCallers.of(account)).emailVerified)
            #expect(try await TestEvents.types(pool) == ["user.registered", "user.email_verified"])

            let again = await rpcError { try await test.accounts.verifyEmail(token: token) }
            #expect(again?.code == .failedPrecondition)
            #expect(again?.reason == "LINK_ALREADY_USED")
            #expect(try await TestEvents.types(pool).count == 2)
        }
    }

    @Test func aTokenWorksUntilTwentyFourHoursHavePassed() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let first = try await test.register("first")
            let second = try await test.register("second")
            test.clock.advance(seconds: 24 * 3_600 - 1)
            #expect(
                try await test.accounts.verifyEmail(token: try await TestMailbox(pool).token(to: first.email))
                    == first.id)
            test.clock.advance(seconds: 1)
            let expired = await rpcError {
                try await test.accounts.verifyEmail(
                    token: try await TestMailbox(pool).token(to: second.email))
            }
            #expect(expired?.code == .failedPrecondition)
            #expect(expired?.reason == "LINK_EXPIRED")
            #expect(try await !test.accounts.me(TestCallers.of(second)).emailVerified)
        }
    }

    @Test func unknownAndEmptyTokensAreRefusedClearly() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let unknown = await rpcError { try await test.accounts.verifyEmail(token: "not-a-token-we-sent") }
            #expect(unknown?.code == .notFound)
            #expect(unknown?.reason == "LINK_UNKNOWN")
            let empty = await rpcError { try await test.accounts.verifyEmail(token: "") }
            #expect(empty?.code == .invalidArgument)
            #expect(empty?.badFields == ["token"])
        }
    }

    @Test func aDateOfBirthConfirmationTokenDoesNotVerifyAnEmail() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            try await test.accounts.requestDateOfBirthChange(
                accountID: account.id, password: "correct horse 1",
                dateOfBirth: DateComponents(year: 1991, month: 1, day: 1))
            let confirmation = try await TestMailbox(pool).token(to: account.email)
            #expect(
                await rpcError { try await test.accounts.verifyEmail(token: confirmation) }?.reason
                    == "LINK_UNKNOWN")
        }
    }

    @Test func resendAnswersTheSameForUnknownVerifiedAndUnverifiedAddresses() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let verified = try await test.registerVerified("verified")
            let pending = try await test.register("pending")
            test.clock.advance(seconds: 61)
            try await test.accounts.resendVerification(to: "nobody@example.com")
            try await test.accounts.resendVerification(to: verified.email)
            try await test.accounts.resendVerification(to: pending.email.uppercased())

            let mailbox = TestMailbox(pool)
            #expect(try await mailbox.mail(to: "nobody@example.com").isEmpty)
            #expect(try await mailbox.mail(to: verified.email).count == 1)
            #expect(try await mailbox.mail(to: pending.email).count == 2)
            #expect(
                try await test.accounts.verifyEmail(token: try await mailbox.token(to: pending.email))
                    == pending.id)
        }
    }

    @Test func resendSendsAtMostOneMailAMinute() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register()
            try await test.accounts.resendVerification(to: account.email)
            test.clock.advance(seconds: 59)
            try await test.accounts.resendVerification(to: account.email)
            #expect(try await TestMailbox(pool).mail(to: account.email).count == 1)
            test.clock.advance(seconds: 1)
            try await test.accounts.resendVerification(to: account.email)
            #expect(try await TestMailbox(pool).mail(to: account.email).count == 2)
        }
    }

    @Test func verifyingRetiresEveryOtherVerificationLink() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register()
            let first = try await TestMailbox(pool).token(to: account.email)
            test.clock.advance(seconds: 120)
            try await test.accounts.resendVerification(to: account.email)
            let second = try await TestMailbox(pool).token(to: account.email)
            #expect(first != second)
            _ = try await test.accounts.verifyEmail(token: second)
            #expect(
                await rpcError { try await test.accounts.verifyEmail(token: first) }?.reason
                    == "LINK_ALREADY_USED")
        }
    }

    @Test func resendRefusesAMalformedAddressWithoutLookingItUp() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await TestAccounts(pool).accounts.resendVerification(to: "nope")
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["email"])
        }
    }
}
