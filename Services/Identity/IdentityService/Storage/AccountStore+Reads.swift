import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `identity.accounts`: each function one statement, run on the pool or inside a transaction. The
/// table's SQL lives in the `AccountStore+*.swift` files and nowhere else.
enum AccountStore {
    /// The owner's view of an account, its date of birth opened by `dates`, with whether a date-of-birth change
    /// awaits confirmation at `now`.
    static func account(
        id: UserID, now: Date, dates: BirthDates, emails: AccountEmails, on db: some StatementRunner
    ) async throws -> AccountRecord? {
        let rows = try await db.pureRead(
            """
            SELECT a.id::text, a.username, a.email, a.email_verified_at IS NOT NULL, a.date_of_birth::text,
                a.age_band, a.parental_controls, a.role, a.created_at, a.age_assurance_method, a.age_assured_at,
                EXISTS (SELECT 1 FROM identity.email_tokens t
                        WHERE t.account_id = a.id AND t.purpose = 'confirm_date_of_birth'
                          AND t.used_at IS NULL AND t.expires_at > \(now)),
                a.date_of_birth_sealed, a.email_sealed
            FROM identity.accounts a WHERE a.id = \(id)
            """)
        guard let row = rows.first else { return nil }
        let columns = try row.decode(
            (
                UserID, String, String?, Bool, String?, String, Bool, String, Date, String, Date, Bool,
                [UInt8]?,
                [UInt8]?
            ).self)
        return AccountRecord(
            id: columns.0, username: columns.1,
            email: try emails.open(plain: columns.2, sealed: columns.13, of: columns.0),
            emailVerified: columns.3,
            dateOfBirth: try dates.open(
                StoredBirthDate(plain: columns.4, sealed: columns.12), at: .account(id)),
            ageBand: try value(columns.5, row: id), parentalControls: columns.6,
            role: try value(columns.7, row: id), createdAt: columns.8,
            ageAssurance: try value(columns.9, row: id), ageAssuredAt: columns.10,
            dateOfBirthChangePending: columns.11)
    }

    /// The username and stored password hash of an account: what confirming its password needs.
    static func passwordCheck(id: UserID, on db: some StatementRunner) async throws
        -> (username: String, passwordHash: String)?
    {
        let rows = try await db.pureRead(
            "SELECT username, password_hash FROM identity.accounts WHERE id = \(id)")
        return try rows.first?.decode((String, String).self)
    }

    /// An account's age band and parental controls: all `GetAgeRange` may read.
    static func ageRange(id: UserID, on db: some StatementRunner) async throws
        -> (band: TokenClaims.AgeBand, parentalControls: Bool)?
    {
        let rows = try await db.pureRead(
            "SELECT age_band, parental_controls FROM identity.accounts WHERE id = \(id)")
        guard let row = rows.first else { return nil }
        let (band, controls) = try row.decode((String, Bool).self)
        return (try value(band, row: id), controls)
    }

    /// Whom a mail about an account goes to.
    struct Addressee: Sendable {
        let id: UserID
        let username: String
        /// As registered, whatever case it was typed in since.
        let email: String
        let emailVerified: Bool
    }

    /// Account `id`'s addressee: what a mail to it needs, its email opened by `emails`.
    static func addressee(id: UserID, emails: AccountEmails, on db: some StatementRunner) async throws
        -> Addressee?
    {
        let rows = try await db.pureRead(
            """
            SELECT id::text, username, email, email_verified_at IS NOT NULL, email_sealed FROM identity.accounts
            WHERE id = \(id)
            """)
        return try rows.first.map { try addressee($0, emails) }
    }

    /// The account registered under `email`, ignoring case: by its blind index under `emails`, or as the
    /// plaintext of an account from before sealing.
    static func addressee(email: String, emails: AccountEmails, on db: some StatementRunner) async throws
        -> Addressee?
    {
        let rows = try await db.pureRead(
            """
            SELECT id::text, username, email, email_verified_at IS NOT NULL, email_sealed FROM identity.accounts
            WHERE email_index = \(emails.index(email))::bytea OR lower(email) = lower(\(email))
            """)
        return try rows.first.map { try addressee($0, emails) }
    }

    private static func addressee(_ row: PostgresRow, _ emails: AccountEmails) throws -> Addressee {
        let (id, username, address, verified, sealed) = try row.decode(
            (UserID, String, String?, Bool, [UInt8]?).self)
        return Addressee(
            id: id, username: username, email: try emails.open(plain: address, sealed: sealed, of: id),
            emailVerified: verified)
    }

    /// A band, role or assurance method as the column holds it; a value the table's CHECK should have kept
    /// out is a decoding error naming the row.
    static func value<Value: RawRepresentable<String>>(_ text: String, row id: UserID? = nil) throws -> Value
    {
        guard let value = Value(rawValue: text) else {
            let row = id.map { " row \($0)" } ?? ""
            throw PostgresError(
                kind: .decoding, message: "identity.accounts\(row) holds an unknown \(Value.self) '\(text)'")
        }
        return value
    }
}
