@testable import IdentityService
import KindredAuth
import KindredPostgres
import KindredRPC
import Synchronization
import Testing

@Suite("RequestPasswordReset and ResetPassword")
struct PasswordResetTests {
    static let newPassword = "a new password 2"

    /// The reset mails `request` handed over, in order.
    final class Outbox: Sendable {
        let mails = Mutex<[PasswordResetMail]>([])

        func send(_ mail: PasswordResetMail, _ tx: PostgresTransaction) {
            mails.withLock { $0.append(mail) }
        }

        /// The token of the last mail: the line that is the token and nothing else.
        var lastToken: OpaqueToken? {
            mails.withLock { $0.last }.flatMap { mail in
                mail.body.split(separator: "\n").last { !$0.contains(" ") && $0.count == 43 }.map {
                    OpaqueToken(text: String($0))
                }
            }
        }
    }

    static func request(_ fixture: SignInFixture, _ email: String, _ outbox: Outbox) async throws {
        try await fixture.credentials.resets.request(email: email) { mail, tx in outbox.send(mail, tx) }
    }

    @Test func aKnownEmailGetsAMailWithTheTokenInALinkAndOnItsOwnLine() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r", email: "Mia@Example.com")
            let outbox = Outbox()
            try await Self.request(fixture, "mia@example.COM", outbox)
            let mail = try #require(outbox.mails.withLock { $0.first })
            let token = try #require(outbox.lastToken)
            #expect(mail.to == "Mia@Example.com")
            #expect(mail.body.contains("Hello mia_r,"))
            #expect(mail.body.contains("https://kindred.test/app/reset-password?token=\(token.text)\n"))
            let stored = try await fixture.sql(
                """
                SELECT expires_at - created_at FROM identity.email_tokens
                WHERE token_hash = \(token.storageHash) AND purpose = 'reset_password'
                """)
            #expect(stored.count == 1)
        }
    }

    @Test func anUnknownEmailGetsTheSameAnswerAndNoMail() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let outbox = Outbox()
            try await Self.request(fixture, "nobody@example.com", outbox)
            #expect(outbox.mails.withLock { $0.isEmpty })
        }
    }

    @Test func aSecondRequestWithinAMinuteSendsNothingMore() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            try await Self.request(fixture, "mia_r@example.com", outbox)
            #expect(outbox.mails.withLock { $0.count } == 1)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            try await Self.request(fixture, "mia_r@example.com", outbox)
            #expect(outbox.mails.withLock { $0.count } == 2)
        }
    }

    @Test func aResetSetsThePasswordRevokesEveryRefreshTokenAndClearsTheLockout() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let session = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            for _ in 0..<5 { _ = await SignInLockoutTests.attempt(fixture, "mia_r@example.com") }
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            try await fixture.credentials.resets.reset(
                token: try #require(outbox.lastToken), newPassword: Self.newPassword)

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
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            let older = try #require(outbox.lastToken)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET created_at = now() - interval '61 seconds'")
            try await Self.request(fixture, "mia_r@example.com", outbox)
            let newer = try #require(outbox.lastToken)
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
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            _ = try await fixture.sql(
                "UPDATE identity.email_tokens SET expires_at = now() - interval '1 second'")
            for token in [try #require(outbox.lastToken), OpaqueToken.generate()] {
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
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            let token = try #require(outbox.lastToken)
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
            let outbox = Outbox()
            try await Self.request(fixture, "mia_r@example.com", outbox)
            let token = try #require(outbox.lastToken)
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
