@testable import IdentityService
import KindredAuth
import KindredPostgres
import KindredRPC
import Testing

@Suite("RequestPasswordReset and ResetPassword")
struct PasswordResetTests {
    static let newPassword = "a new password 2"

    /// The reset mails in the outbox, oldest first, as the delivery worker reads them.
    struct Outbox {
        struct Mail {
            let to: String
            let body: String
        }

        let fixture: SignInFixture

        var mails: [Mail] {
            get async throws {
                let rows = try await fixture.sql(
                    "SELECT recipient, body FROM identity.mail_outbox WHERE kind = 'reset_password' ORDER BY id"
                )
                return try rows.map { row in
                    let (to, body) = try row.decode((String, String).self)
                    return Mail(to: to, body: body)
                }
            }
        }

        /// The token of the last mail: the line that is the token and nothing else.
        var lastToken: OpaqueToken? {
            get async throws {
                try await mails.last.flatMap { mail in
                    mail.body.split(separator: "\n").last { !$0.contains(" ") && $0.count == 43 }.map {
                        OpaqueToken(text: String($0))
                    }
                }
            }
        }
    }

    static func request(_ fixture: SignInFixture, _ email: String) async throws -> Outbox {
        try await fixture.credentials.resets.request(email: email)
        return Outbox(fixture: fixture)
    }

    @Test func aKnownEmailGetsAMailWithTheTokenInALinkAndOnItsOwnLine() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r", email: "Mia@Example.com")
            let outbox = try await Self.request(fixture, "mia@example.COM")
            let mail = try #require(try await outbox.mails.first)
            let token = try #require(try await outbox.lastToken)
            #expect(mail.to == "Mia@Example.com")
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
            #expect(try await outbox.mails.isEmpty)
        }
    }

    @Test func aSecondRequestWithinAMinuteSendsNothingMore() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            _ = try await Self.request(fixture, "mia_r@example.com")
            #expect(try await outbox.mails.count == 1)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            _ = try await Self.request(fixture, "mia_r@example.com")
            #expect(try await outbox.mails.count == 2)
        }
    }

    @Test func aResetSetsThePasswordRevokesEveryRefreshTokenAndClearsTheLockout() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let session = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            for _ in 0..<5 { _ = await SignInLockoutTests.attempt(fixture, "mia_r@example.com") }
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            try await fixture.credentials.resets.reset(
                token: try #require(try await outbox.lastToken), newPassword: Self.newPassword)

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
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            let older = try #require(try await outbox.lastToken)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            _ = try await Self.request(fixture, "mia_r@example.com")
            let newer = try #require(try await outbox.lastToken)
            try await fixture.credentials.resets.reset(token: newer, newPassword: Self.newPassword)
            for token in [newer, older] {
                await #expect(throws: CredentialError.invalidResetToken) {
                    try await fixture.credentials.resets.reset(token: token, newPassword: "yet another 3")
                }
            }
        }
    }

    @Test func anExpiredOrUnknownTokenIsRefused() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET expires_at = now() - interval '1 second'")
            for token in [try #require(try await outbox.lastToken), OpaqueToken.generate()] {
                let error = await rpcError {
                    try await fixture.credentials.resets.reset(token: token, newPassword: Self.newPassword)
                }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.reason == "RESET_TOKEN_INVALID")
            }
        }
    }

    @Test(arguments: ["short", "onlyletters", "mia_r", "MIA_R@example.com"])
    func aNewPasswordBreakingThePolicyIsRefusedAndTheTokenStaysUsable(password: String) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            let token = try #require(try await outbox.lastToken)
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
            let outbox = try await Self.request(fixture, "mia_r@example.com")
            let token = try #require(try await outbox.lastToken)
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
