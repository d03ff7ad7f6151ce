import FoundationEssentials
import KindredAuth
import KindredPostgres

/// The SQL of `identity.accounts`: each function one statement, run on the pool or inside a transaction.
enum AccountStore {
    /// The owner's view of an account, with whether a date-of-birth change awaits confirmation at `now`.
    static func account(id: String, now: Date, on db: some StatementRunner) async throws -> AccountRecord? {
        let rows = try await db.query(
            """
            SELECT a.id::text, a.username, a.email, a.email_verified_at IS NOT NULL, a.date_of_birth::text,
                a.age_band, a.parental_controls, a.role, a.created_at, a.age_assurance_method, a.age_assured_at,
                EXISTS (SELECT 1 FROM identity.email_tokens t
                        WHERE t.account_id = a.id AND t.purpose = 'confirm_date_of_birth'
                          AND t.used_at IS NULL AND t.expires_at > \(now))
            FROM identity.accounts a WHERE a.id = \(id)
            """)
        guard let row = rows.first else { return nil }
        let columns = try row.decode(
            (String, String, String, Bool, String, String, Bool, String, Date, String, Date, Bool).self)
        guard let dateOfBirth = CalendarDate(iso: columns.4),
            let band = TokenClaims.AgeBand(rawValue: columns.5),
            let role = TokenClaims.Role(rawValue: columns.7),
            let assurance = AccountRecord.AgeAssurance(rawValue: columns.9)
        else {
            throw PostgresError(kind: .decoding, message: "identity.accounts row \(id) has an unknown value")
        }
        return AccountRecord(
            id: columns.0, username: columns.1, email: columns.2, emailVerified: columns.3,
            dateOfBirth: dateOfBirth, ageBand: band, parentalControls: columns.6, role: role,
            createdAt: columns.8, ageAssurance: assurance, ageAssuredAt: columns.10,
            dateOfBirthChangePending: columns.11)
    }

    /// The stored password hash of an account.
    static func passwordHash(id: String, on db: some StatementRunner) async throws -> String? {
        let rows = try await db.query("SELECT password_hash FROM identity.accounts WHERE id = \(id)")
        return try rows.first?.decode(String.self, column: 0)
    }

    /// An account's age band and parental controls: all `GetAgeRange` may read.
    static func ageRange(id: String, on db: some StatementRunner) async throws
        -> (band: TokenClaims.AgeBand, parentalControls: Bool)?
    {
        let rows = try await db.query(
            "SELECT age_band, parental_controls FROM identity.accounts WHERE id = \(id)")
        guard let row = rows.first else { return nil }
        let (band, controls) = try row.decode((String, Bool).self)
        guard let ageBand = TokenClaims.AgeBand(rawValue: band) else {
            throw PostgresError(
                kind: .decoding, message: "identity.accounts row \(id) has an unknown age band")
        }
        return (ageBand, controls)
    }

    /// The account registered under `email` (ignoring case), and whether its address is verified.
    static func account(email: String, on db: some StatementRunner) async throws
        -> (id: String, username: String, email: String, verified: Bool)?
    {
        let rows = try await db.query(
            """
            SELECT id::text, username, email, email_verified_at IS NOT NULL FROM identity.accounts
            WHERE lower(email) = lower(\(email))
            """)
        guard let row = rows.first else { return nil }
        let (id, username, address, verified) = try row.decode((String, String, String, Bool).self)
        return (id, username, address, verified)
    }
}
