import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of registration: the new row, what a request id already created, and the refused-attempt count.
extension AccountStore {
    /// A row about to be inserted.
    struct NewAccount: Sendable {
        let id: UserID
        let username: String
        let email: String
        let passwordHash: String
        let dateOfBirth: CalendarDate
        let ageBand: TokenClaims.AgeBand
        let requestID: String
        let now: Date
    }

    /// What a request id already registered: enough to tell a retry of the same request from a reused key.
    struct Registration: Sendable {
        let id: UserID
        let username: String
        let email: String
        let dateOfBirth: CalendarDate
        let passwordHash: String
    }

    /// Inserts the account, its date of birth sealed by `dates` and its email by `emails` (with its blind
    /// index), self-declared and assured now, with parental controls on for a minor; returns false, changing
    /// nothing, when the username, the email or the request id is taken (also by a concurrent registration,
    /// which this statement waits for).
    static func insert(
        _ account: NewAccount, dates: BirthDates, emails: AccountEmails, on db: some StatementRunner
    ) async throws -> Bool {
        let sealedBirth = dates.seal(account.dateOfBirth, at: .account(account.id))
        let (sealedEmail, emailIndex) = (
            emails.seal(account.email, of: account.id), emails.index(account.email)
        )
        let rows = try await db.query(
            """
            INSERT INTO identity.accounts (id, username, email_sealed, email_index, password_hash,
                date_of_birth_sealed, age_band, age_assurance_method, age_assured_at, parental_controls, created_at,
                registration_request_id)
            VALUES (\(account.id), \(account.username), \(sealedEmail)::bytea, \(emailIndex)::bytea, \(account.passwordHash),
                \(sealedBirth)::bytea, \(account.ageBand.rawValue), 'self_declared', \(account.now),
                \(account.ageBand.isMinor), \(account.now), \(account.requestID))
            ON CONFLICT DO NOTHING
            RETURNING id
            """)
        return !rows.isEmpty
    }

    /// The account `requestID` registered, if any, its date of birth opened by `dates` and its email by
    /// `emails`.
    static func registration(
        requestID: String, dates: BirthDates, emails: AccountEmails, on db: some StatementRunner
    ) async throws -> Registration? {
        let rows = try await db.pureRead(
            """
            SELECT id::text, username, email, password_hash, date_of_birth::text, date_of_birth_sealed, email_sealed
            FROM identity.accounts WHERE registration_request_id = \(requestID)
            """)
        guard let row = rows.first else { return nil }
        let (id, username, email, hash, birth, sealedBirth, sealedEmail) = try row.decode(
            (UserID, String, String?, String, String?, [UInt8]?, [UInt8]?).self)
        return Registration(
            id: id, username: username, email: try emails.open(plain: email, sealed: sealedEmail, of: id),
            dateOfBirth: try dates.open(StoredBirthDate(plain: birth, sealed: sealedBirth), at: .account(id)),
            passwordHash: hash)
    }

    /// Whether another account holds the username and the email address (by its blind index under `emails`, or
    /// as the plaintext of an account from before sealing), ignoring case.
    static func taken(username: String, email: String, emails: AccountEmails, on db: some StatementRunner)
        async throws -> (username: Bool, email: Bool)
    {
        let rows = try await db.pureRead(
            """
            SELECT EXISTS (SELECT 1 FROM identity.accounts WHERE lower(username) = lower(\(username))),
                   EXISTS (SELECT 1 FROM identity.accounts
                           WHERE email_index = \(emails.index(email))::bytea OR lower(email) = lower(\(email)))
            """)
        let (username, email) = try rows[0].decode((Bool, Bool).self)
        return (username, email)
    }

    /// Counts one refused under-13 registration on `day`: the only thing such an attempt leaves behind.
    static func countRefusedRegistration(on day: CalendarDate, on db: some StatementRunner) async throws {
        try await db.query(
            """
            INSERT INTO identity.refused_registrations (day, attempts) VALUES (\(day.description), 1)
            ON CONFLICT (day) DO UPDATE SET attempts = identity.refused_registrations.attempts + 1
            """)
    }
}
