import Foundation
@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
import Testing

/// Where the account rules meet sign-in: a registered account signs in once verified, its tokens carry the
/// band and controls the account row holds now, a deleted account's refresh tokens are gone with it, and a
/// password given again for a change counts toward the sign-in lockout.
@Suite("Accounts and sign-in")
struct AccountSignInTests {
    static let password = "correct horse 1"

    /// The account rules and sign-in on one database, the hasher and the secret (so the lockout) shared as in
    /// the service.
    static func withBoth(
        clock: TestClock = TestClock(), _ body: (TestAccounts, Credentials) async throws -> Void
    ) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: clock)
            let credentials = try await Credentials.start(
                database: pool, passwords: test.accounts.passwords, settings: test.settings,
                logger: IdentityTestDatabase.logger)
            try await body(test, credentials)
        }
    }

    static func claims(_ tokens: IssuedTokens, _ credentials: Credentials) async throws -> Caller {
        try await credentials.claims(of: tokens.accessToken)
    }

    @Test func aRegisteredAccountSignsInOnlyOnceItsEmailIsVerified() async throws {
        try await Self.withBoth { test, credentials in
            let account = try await test.register("mia_r")
            let early = await rpcError {
                try await credentials.passwordGrant(identifier: "mia_r", password: Self.password)
            }
            #expect(early?.reason == "EMAIL_NOT_VERIFIED")
            _ = try await test.accounts.verifyEmail(
                token: try await TestMailbox(test.pool).token(to: account.email))
            let tokens = try await credentials.passwordGrant(
                identifier: "MIA_R@example.com", password: Self.password)
            #expect(try await Self.claims(tokens, credentials).accountUserID == account.id)
        }
    }

    @Test func afterTheSweepTheNextTokenSaysEighteenPlus() async throws {
        try await Self.withBoth(clock: TestClock("2026-06-14T12:00:00Z")) { test, credentials in
            try await test.registerVerified("almost18", born: (2008, 6, 15))
            let first = try await credentials.passwordGrant(identifier: "almost18", password: Self.password)
            let before = try await Self.claims(first, credentials)
            #expect(before.ageBand == .sixteenToSeventeen && before.parentalControls)

            test.clock.set("2026-06-15T00:10:00Z")
            _ = try await test.accounts.sweepComingOfAge()
            let refreshed = try await credentials.refreshGrant(try #require(first.refreshToken))
            let after = try await Self.claims(refreshed, credentials)
            #expect(after.ageBand == .adult && !after.parentalControls)
        }
    }

    @Test func deletingAnAccountTakesItsRefreshTokensWithIt() async throws {
        try await Self.withBoth { test, credentials in
            let account = try await test.registerVerified("mia_r")
            let tokens = try await credentials.passwordGrant(identifier: "mia_r", password: Self.password)
            try await test.accounts.deleteAccount(account.id, password: Self.password)
            let refused = await rpcError {
                try await credentials.refreshGrant(try #require(tokens.refreshToken))
            }
            #expect(refused?.reason == "REFRESH_TOKEN_INVALID")
            let chains = try await test.pool.query("SELECT count(*) FROM identity.refresh_chains")
            #expect(try chains[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func wrongPasswordsForChangesCountTowardTheSignInLockoutOfTheUsername() async throws {
        try await Self.withBoth { test, credentials in
            let account = try await test.registerVerified("mia_r")
            let wrong = "not my password 1"
            for _ in 0..<2 {
                #expect(
                    await rpcError {
                        try await credentials.passwordGrant(identifier: "MIA_R", password: wrong)
                    }?
                    .reason == "INVALID_CREDENTIALS")
            }
            for _ in 0..<2 {
                #expect(
                    await rpcError { try await test.accounts.deleteAccount(account.id, password: wrong) }?
                        .reason
                        == "PASSWORD_INCORRECT")
            }
            let birth = DateComponents(year: 1991, month: 1, day: 1)
            #expect(
                await rpcError {
                    try await test.accounts.requestDateOfBirthChange(
                        accountID: account.id, password: wrong, dateOfBirth: birth)
                }?.reason == "PASSWORD_INCORRECT")

            let locked = await rpcError {
                try await test.accounts.deleteAccount(account.id, password: Self.password)
            }
            #expect(locked?.code == .resourceExhausted)
            #expect(locked?.reason == "SIGN_IN_LOCKED")
            #expect(locked?.retryDelay != nil)
            let lockedChange = await rpcError {
                try await test.accounts.requestDateOfBirthChange(
                    accountID: account.id, password: Self.password, dateOfBirth: birth)
            }
            #expect(lockedChange?.reason == "SIGN_IN_LOCKED")
            let signIn = await rpcError {
                try await credentials.passwordGrant(identifier: "mia_r", password: Self.password)
            }
            #expect(signIn?.reason == "SIGN_IN_LOCKED")
            #expect(try await test.accounts.me(TestCallers.of(account)).id == account.id)
        }
    }

    @Test func theRightPasswordForAChangeClearsTheCount() async throws {
        try await Self.withBoth { test, credentials in
            let account = try await test.registerVerified("mia_r")
            for _ in 0..<4 {
                _ = await rpcError {
                    try await credentials.passwordGrant(identifier: "mia_r", password: "guess 123")
                }
            }
            try await test.accounts.requestDateOfBirthChange(
                accountID: account.id, password: Self.password,
                dateOfBirth: DateComponents(year: 1991, month: 1, day: 1))
            for _ in 0..<4 {
                #expect(
                    await rpcError {
                        try await test.accounts.deleteAccount(account.id, password: "guess 123")
                    }?
                    .reason == "PASSWORD_INCORRECT")
            }
            try await test.accounts.deleteAccount(account.id, password: Self.password)
        }
    }

    @Test func aMinorWhoseControlsAreOffGetsTokensSayingSo() async throws {
        try await Self.withBoth { test, credentials in
            let teen = try await test.registerVerified("teen", born: (2010, 1, 1))
            let before = try await credentials.passwordGrant(identifier: "teen", password: Self.password)
            #expect(try await Self.claims(before, credentials).parentalControls)
            // What family will do for a minor whose guardian turns the controls off (issue 4).
            try await test.pool.query(
                "UPDATE identity.accounts SET parental_controls = false WHERE id = \(teen.id)::uuid")
            let refreshed = try await credentials.refreshGrant(try #require(before.refreshToken))
            let caller = try await Self.claims(refreshed, credentials)
            #expect(caller.ageBand == .sixteenToSeventeen)
            #expect(!caller.parentalControls)
        }
    }
}
