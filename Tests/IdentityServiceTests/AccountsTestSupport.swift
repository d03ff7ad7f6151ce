import Foundation
@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredMail
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Synchronization
import Testing

extension TestClock {
    /// The clock the identity rules read, standing where the test set this one.
    var wallClock: WallClock { WallClock { self.now } }

    /// What a token verifier reads: whole seconds of this clock.
    var tokenClock: TokenClock { TokenClock { Int64(self.now.timeIntervalSince1970.rounded(.down)) } }

    /// A clock standing on the current whole second, for tokens a real verifier must accept.
    static func startingNow() -> TestClock {
        TestClock(at: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }
}

/// The account rules on a test database, at the cheapest Argon2id cost, on a clock the test controls. The
/// settings are what sign-in on the same database needs to share its lockout (`AccountSignInTests`).
struct TestAccounts {
    static let mail = IdentityMail(
        links: LinkBase("https://kindred.test/app")!, cipher: TestDataKeys.cipher)
    /// Dates of birth sealed under the tests' data keys: "test-2" seals, "test-1" still opens.
    static let birthDates = BirthDates(cipher: TestDataKeys.cipher)

    let pool: PostgresPool
    let clock: TestClock
    let settings: IdentitySettings
    let accounts: Accounts

    init(
        _ pool: PostgresPool, clock: TestClock = TestClock(),
        passwords: PasswordHasher = PasswordHasher(cost: .testsOnly, concurrency: 2)
    ) {
        self.pool = pool
        self.clock = clock
        settings = IdentitySettings(secret: .generate(), mail: Self.mail)
        accounts = Accounts(
            database: pool, passwords: passwords,
            lockout: SignInLockout(database: pool, secret: settings.secret), clock: clock.wallClock,
            mail: Self.mail, birthDates: Self.birthDates, logger: IdentityTestDatabase.logger)
    }

    /// A registration request that passes every check; change what a test is about.
    static func request(
        _ username: String = "mia_r", email: String? = nil, password: String = "correct horse 1",
        born: (Int, Int, Int) = (1990, 4, 12), requestID: String? = nil
    ) -> Kindred_Identity_V1_RegisterAccountRequest {
        Kindred_Identity_V1_RegisterAccountRequest(
            requestID: requestID ?? "req-\(username)", email: email ?? "\(username)@example.com",
            username: username, password: password,
            dateOfBirth: DateComponents(year: born.0, month: born.1, day: born.2))
    }

    /// Registers an account.
    @discardableResult
    func register(
        _ username: String = "mia_r", born: (Int, Int, Int) = (1990, 4, 12),
        password: String = "correct horse 1"
    ) async throws -> AccountRecord {
        try await accounts.register(Self.request(username, password: password, born: born))
    }

    /// Registers an account and verifies its email with the token from its verification mail.
    @discardableResult
    func registerVerified(_ username: String, born: (Int, Int, Int) = (1990, 4, 12)) async throws
        -> AccountRecord
    {
        let account = try await register(username, born: born)
        _ = try await accounts.verifyEmail(token: try await TestMailbox(pool).token(to: account.email))
        return account
    }
}

/// Callers as a verified access token makes them: signed and verified for real, since only the verifier
/// makes a `Caller`.
enum TestCallers {
    static let key = SigningKey()
    private static let verifier = TokenVerifier(keys: [key.verificationKey])

    /// An access token for `userID`, signed with `key`.
    static func token(_ userID: String, role: TokenClaims.Role = .user) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenSigner(key: key).sign(
            TokenClaims(
                subject: userID, role: role, ageBand: .adult, parentalControls: false, scope: .full,
                issuedAt: now, expiresAt: now + 900, tokenID: UUID().uuidString.lowercased()))
    }

    static func caller(_ userID: String, role: TokenClaims.Role = .user) -> Caller {
        try! verifier.verify(token(userID, role: role))
    }

    static func of(_ account: AccountRecord) -> Caller { caller(account.id.description) }
    static let admin = caller("0192f5e0-7c1a-7b3e-8f00-00000000ad01", role: .admin)
    static let service = caller("family", role: .service)
}
