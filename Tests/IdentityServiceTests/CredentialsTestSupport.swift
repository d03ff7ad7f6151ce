import Foundation
@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC
import Testing

/// Sign-in on a test database: accounts written straight into `identity.accounts` (registration is another
/// concern), the cheapest Argon2id cost, a fresh service secret, and a signer re-read every 50 ms.
struct SignInFixture {
    static let password = "correct horse 1"

    let pool: PostgresPool
    let secret: ServiceSecret
    let passwords: PasswordHasher
    let credentials: Credentials

    init(
        _ pool: PostgresPool, secret: ServiceSecret = .generate(), clients: ClientRegistry = .none,
        clock: WallClock = .system
    ) async throws {
        self.pool = pool
        self.secret = secret
        passwords = PasswordHasher(cost: .testsOnly, concurrency: 2)
        credentials = try await Credentials.start(
            database: pool, passwords: passwords,
            settings: IdentitySettings(secret: secret, clients: clients, mail: TestAccounts.mail),
            clock: clock, keyRefreshInterval: .milliseconds(50), logger: IdentityTestDatabase.logger)
    }

    /// Writes an account whose password is `password`, with parental controls as a new account of its band
    /// has them unless `parentalControls` says otherwise; returns its id.
    @discardableResult
    func account(
        _ username: String, email: String? = nil, password: String = password, band: String = "18+",
        parentalControls: Bool? = nil, role: String = "user", verified: Bool = true,
        passwordHash: String? = nil
    ) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let hash: String
        if let passwordHash { hash = passwordHash } else { hash = try await passwords.hash(password) }
        try await pool.query(
            """
            INSERT INTO identity.accounts (id, username, email, password_hash, date_of_birth, age_band,
                age_assurance_method, age_assured_at, role, email_verified_at, parental_controls)
            VALUES (\(id)::uuid, \(username), \(email ?? "\(username)@example.com"), \(hash), '2000-01-01', \(band),
                'self_declared', now(), \(role), CASE WHEN \(verified) THEN now() END,
                \(parentalControls ?? (band != "18+")))
            """)
        return id
    }

    /// The claims of an access token, checked with the keys `GetSigningKeys` publishes.
    func claims(of accessToken: String) async throws -> Caller {
        try await credentials.claims(of: accessToken)
    }

    /// Runs one SQL statement the test needs to set the scene (ageing a row, say).
    func sql(_ query: PostgresQuery) async throws -> PostgresRows {
        try await pool.query(query)
    }
}

extension Credentials {
    /// The claims of an access token, checked with the keys `GetSigningKeys` publishes.
    func claims(of accessToken: String) async throws -> Caller {
        try TokenVerifier(keys: try await signingKeys.verificationKeys()).verify(accessToken)
    }
}
