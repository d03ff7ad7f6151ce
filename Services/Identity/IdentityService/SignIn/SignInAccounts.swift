import KindredAuth
import KindredPostgres

/// What sign-in reads from and writes to `identity.accounts`: the password hash and the token claims.
struct SignInAccounts: Sendable {
    let database: PostgresPool

    /// An account as sign-in sees it.
    struct Account: Sendable {
        let subject: TokenSubject
        let passwordHash: String
        let emailVerified: Bool
        var id: String { subject.subject }
    }

    /// The account whose username or email is `identifier`, ignoring case.
    func find(identifier: String) async throws -> Account? {
        let rows = try await database.query(
            """
            SELECT id::text, role, age_band, password_hash, email_verified_at IS NOT NULL
            FROM identity.accounts
            WHERE lower(username) = lower(\(identifier)) OR lower(email) = lower(\(identifier))
            """)
        return try rows.first.map { row in
            let (id, role, band, hash, verified) = try row.decode((String, String, String, String, Bool).self)
            return Account(
                subject: try Self.subject(id, role, band), passwordHash: hash, emailVerified: verified)
        }
    }

    /// The claims of account `id` now, or nil when it is gone.
    func subject(id: String) async throws -> TokenSubject? {
        let rows = try await database.query(
            "SELECT id::text, role, age_band FROM identity.accounts WHERE id = \(id)::uuid")
        return try rows.first.map { row in
            let (id, role, band) = try row.decode((String, String, String).self)
            return try Self.subject(id, role, band)
        }
    }

    /// Stores a fresh hash of the password that just matched `previous`, unless it changed meanwhile.
    func replacePasswordHash(id: String, previous: String, with hash: String) async throws {
        try await database.query(
            """
            UPDATE identity.accounts SET password_hash = \(hash)
            WHERE id = \(id)::uuid AND password_hash = \(previous)
            """)
    }

    private static func subject(_ id: String, _ role: String, _ band: String) throws -> TokenSubject {
        guard let role = TokenClaims.Role(rawValue: role), let band = TokenClaims.AgeBand(rawValue: band)
        else {
            throw UnexpectedRow(description: "account \(id) has role '\(role)' and age band '\(band)'")
        }
        return TokenSubject(subject: id, role: role, ageBand: band)
    }
}

/// A row holding what its table's checks should have kept out: an internal error.
struct UnexpectedRow: Error, CustomStringConvertible {
    let description: String
}
