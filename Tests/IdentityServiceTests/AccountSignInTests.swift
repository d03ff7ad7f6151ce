import Foundation
@testable import IdentityService
import KindredAuth
import KindredPostgres
import Testing

/// Where the account rules meet sign-in: a registered account signs in once verified, its tokens carry the
/// band the account row holds now, and a deleted account's refresh tokens are gone with it.
@Suite("Accounts and sign-in")
struct AccountSignInTests {
    static let password = "correct horse 1"

    /// The account rules and sign-in on one database, the hasher shared as in the service.
    static func withBoth(
        clock: TestClock = TestClock(), _ body: (TestAccounts, Credentials) async throws -> Void
    ) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = try TestAccounts(pool, clock: clock)
            let credentials = try await Credentials.start(
                database: pool, passwords: test.accounts.passwords,
                settings: CredentialSettings(secret: .generate(), linkBase: test.accounts.mail.linkBase),
                logger: IdentityTestDatabase.logger)
            try await body(test, credentials)
        }
    }

    static func claims(_ tokens: IssuedTokens, _ credentials: Credentials) async throws -> Caller {
        try TokenVerifier(keys: try await credentials.signingKeys.verificationKeys()).verify(
            tokens.accessToken)
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
            #expect(try await Self.claims(tokens, credentials).userID == account.id)
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
}
