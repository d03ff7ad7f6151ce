@testable import IdentityService
import KindredAuth
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("RequestPasswordReset and ResetPassword")
struct PasswordResetTests {
    static let newPassword = "a new password 2"

    /// Asks for a reset of `email`; the mailbox shows what it sent.
    static func request(_ fixture: SignInFixture, _ email: String) async throws -> TestMailbox {
        try await fixture.credentials.resets.request(email: email)
        return TestMailbox(fixture.pool)
    }

    /// The token of the newest mail to `address`.
    static func lastToken(_ fixture: SignInFixture, to address: String = "mia_r@example.com") async throws
        -> OpaqueToken
    {
        OpaqueToken(text: try await TestMailbox(fixture.pool).token(to: address))
    }

    @Test func aKnownEmailGetsAMailWithTheTokenInALinkAndOnItsOwnLine() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r", email: "Mia@Example.com")
            let outbox = try await Self.request(fixture, "mia@example.COM")
            let mail = try #require(try await outbox.all().first)
            let token = try await Self.lastToken(fixture, to: "Mia@Example.com")
            #expect(mail.to == "Mia@Example.com")
            #expect(mail.kind == "reset_password")
            #expect(mail.body.contains("Hello mia_r,"))
            #expect(mail.body.contains("https://kindred.test/app/reset-password?token=\(token.text)\n"))
            let stored = try await fixture.sql(
                """
                SELECT (expires_at - created_at)::text FROM identity.email_tokens
                WHERE token_hash = \(token.storageHash) AND purpose = 'reset_password'
                """)
            #expect(try stored.map { try $0.decode(String.self, column: 0) } == ["01:00:00"])
        }
    }

    @Test func anUnknownEmailGetsTheSameAnswerAndNoMail() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let outbox = try await Self.request(fixture, "nobody@example.com")
            #expect(try await outbox.all().isEmpty)
        }
    }

    @Test func aSecondRequestWithinAMinuteSendsNothingMore() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            _ = try await Self.request(fixture, "mia_r@example.com")
            #expect(try await outbox.all().count == 1)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            _ = try await Self.request(fixture, "mia_r@example.com")
            #expect(try await outbox.all().count == 2)
        }
    }

    @Test func aResetSetsThePasswordRevokesEveryRefreshTokenAndClearsTheLockout() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let session = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            for _ in 0..<5 { _ = await SignInLockoutTests.attempt(fixture, "mia_r@example.com") }
            _ = try await Self.request(fixture, "mia_r@example.com")
            try await fixture.credentials.resets.reset(
                token: try await Self.lastToken(fixture), newPassword: Self.newPassword)

            #expect(
                await rpcError {
                    try await fixture.credentials.refreshGrant(try #require(session.refreshToken))
                } != nil)
            #expect(
                await SignInLockoutTests.attempt(fixture, "mia_r", SignInFixture.password)
                    == "INVALID_CREDENTIALS")
            #expect(await SignInLockoutTests.attempt(fixture, "mia_r@example.com", Self.newPassword) == "OK")
        }
    }

    @Test func aResetTokenWorksOnceAndRetiresTheOthers() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            _ = try await Self.request(fixture, "mia_r@example.com")
            let older = try await Self.lastToken(fixture)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            _ = try await Self.request(fixture, "mia_r@example.com")
            let newer = try await Self.lastToken(fixture)
            try await fixture.credentials.resets.reset(token: newer, newPassword: Self.newPassword)
            for token in [newer, older] {
                let error = await rpcError {
                    try await fixture.credentials.resets.reset(token: token, newPassword: "yet another 3")
                }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.reason == "LINK_ALREADY_USED")
            }
        }
    }

    /// The refusals every mailed link gets (`IdentityError.linkRefused`).
    @Test func anExpiredOrUnknownTokenIsRefusedLikeAnyMailedLink() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            _ = try await Self.request(fixture, "mia_r@example.com")
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET expires_at = now() - interval '1 second'")
            let refusals: [(OpaqueToken, StatusCode, String)] = [
                (try await Self.lastToken(fixture), .failedPrecondition, "LINK_EXPIRED"),
                (OpaqueToken.generate(), .notFound, "LINK_UNKNOWN"),
            ]
            for (token, code, reason) in refusals {
                let error = await rpcError {
                    try await fixture.credentials.resets.reset(token: token, newPassword: Self.newPassword)
                }
                #expect(error?.code == code)
                #expect(error?.reason == reason)
            }
        }
    }

    @Test func aMalformedAddressIsRefusedWithoutLookingItUp() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let error = await rpcError { try await Self.request(fixture, "nope") }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["email"])
        }
    }

    @Test(arguments: ["short", "onlyletters", "mia_r", "MIA_R@example.com"])
    func aNewPasswordBreakingThePolicyIsRefusedAndTheTokenStaysUsable(password: String) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            _ = try await Self.request(fixture, "mia_r@example.com")
            let token = try await Self.lastToken(fixture)
            let error = await rpcError {
                try await fixture.credentials.resets.reset(token: token, newPassword: password)
            }
            #expect(error?.code == .invalidArgument)
            guard case .badRequest(let violations)? = error?.details.first else {
                Issue.record("no BadRequest in \(String(describing: error))")
                return
            }
            #expect(violations.map(\.field) == ["new_password"])
            try await fixture.credentials.resets.reset(token: token, newPassword: Self.newPassword)
        }
    }

    @Test func twoResetsRacingWithOneTokenSucceedOnce() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            _ = try await Self.request(fixture, "mia_r@example.com")
            let token = try await Self.lastToken(fixture)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<2 {
                    group.addTask {
                        (try? await fixture.credentials.resets.reset(
                            token: token, newPassword: "racer number \(index)")) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }
}

@Suite("The password rule")
struct PasswordPolicyTests {
    @Test(
        arguments: [
            ("abc1", "must be 6 to 128 characters"),
            (String(repeating: "a", count: 128) + "1", "must be 6 to 128 characters"),
            ("abcdefgh", "must contain at least one digit or special character"),
            ("tab\there1", "must not contain control characters"),
            ("mia_r1", nil),
            ("MIA_ROSS", "must not be the username or the email address"),
            ("mia_ross@example.com", "must not be the username or the email address"),
            ("ßecret!", nil),
            ("héllo wörld", nil),
        ] as [(String, String?)])
    func passwordsAreJudgedByTheSharedRule(password: String, problem: String?) {
        #expect(
            PasswordPolicy.problem(password, username: "mia_ross", email: "Mia_Ross@example.com") == problem)
    }
}
