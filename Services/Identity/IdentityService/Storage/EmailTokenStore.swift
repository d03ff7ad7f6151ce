import FoundationEssentials
import KindredAuth
import KindredPostgres

/// The SQL of `identity.email_tokens`: single-use tokens mailed to an account, kept only as SHA-256.
enum EmailTokenStore {
    /// What a token is for (`purpose`). `reset_password` belongs to the sign-in side.
    enum Purpose: String, Sendable {
        case verifyEmail = "verify_email"
        case confirmDateOfBirth = "confirm_date_of_birth"
    }

    /// What redeeming a token found.
    enum Redemption: Sendable, Equatable {
        /// Valid until now and now used: the account it belongs to, and the date a confirmation carries.
        case redeemed(accountID: String, newDateOfBirth: CalendarDate?)
        case unknown
        case expired
        case used
    }

    /// Stores a new token for `accountID`, valid from `now` for `lifetime`; returns the text to mail.
    static func issue(
        _ purpose: Purpose, accountID: String, newDateOfBirth: CalendarDate? = nil, now: Date,
        lifetime: Duration, on db: some StatementRunner
    ) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        try await db.query(
            """
            INSERT INTO identity.email_tokens (token_hash, account_id, purpose, new_date_of_birth, expires_at,
                created_at)
            VALUES (\(token.storageHash), \(accountID), \(purpose.rawValue), \(newDateOfBirth?.description)::date,
                \(expiresAt), \(now))
            """)
        return token
    }

    /// Uses `token` for `purpose` if it is unused and unexpired at `now`. The row lock of the UPDATE makes it
    /// single-use under concurrent redemptions: the second waits, then finds it used.
    static func redeem(_ token: OpaqueToken, for purpose: Purpose, now: Date, on db: some StatementRunner)
        async throws -> Redemption
    {
        let hash = token.storageHash
        let rows = try await db.query(
            """
            UPDATE identity.email_tokens SET used_at = \(now)
            WHERE token_hash = \(hash) AND purpose = \(purpose.rawValue) AND used_at IS NULL AND expires_at > \(now)
            RETURNING account_id::text, new_date_of_birth::text
            """)
        if let row = rows.first {
            let (accountID, newDate) = try row.decode((String, String?).self)
            return .redeemed(accountID: accountID, newDateOfBirth: newDate.flatMap(CalendarDate.init(iso:)))
        }
        let found = try await db.query(
            """
            SELECT used_at IS NOT NULL FROM identity.email_tokens
            WHERE token_hash = \(hash) AND purpose = \(purpose.rawValue)
            """)
        guard let used = try found.first?.decode(Bool.self, column: 0) else { return .unknown }
        return used ? .used : .expired
    }

    /// Marks every unused `purpose` token of `accountID` used, so only a newer one (or none) works.
    static func retire(_ purpose: Purpose, accountID: String, now: Date, on db: some StatementRunner)
        async throws
    {
        try await db.query(
            """
            UPDATE identity.email_tokens SET used_at = \(now)
            WHERE account_id = \(accountID) AND purpose = \(purpose.rawValue) AND used_at IS NULL
            """)
    }

    /// When the newest `purpose` token of `accountID` was issued.
    static func lastIssued(_ purpose: Purpose, accountID: String, on db: some StatementRunner) async throws
        -> Date?
    {
        let rows = try await db.query(
            """
            SELECT max(created_at) FROM identity.email_tokens
            WHERE account_id = \(accountID) AND purpose = \(purpose.rawValue)
            """)
        return try rows[0].decode(Date?.self, column: 0)
    }
}
