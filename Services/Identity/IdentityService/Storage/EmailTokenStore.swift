import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `identity.email_tokens`: single-use tokens mailed to an account, kept only as SHA-256.
enum EmailTokenStore {
    /// What a token is for (`purpose`).
    enum Purpose: String, Sendable {
        case verifyEmail = "verify_email"
        case confirmDateOfBirth = "confirm_date_of_birth"
        case resetPassword = "reset_password"
    }

    /// What redeeming a token found.
    enum Redemption: Sendable, Equatable {
        /// Valid until now and now used: the account it belongs to, and the date a confirmation carries.
        case redeemed(accountID: UserID, newDateOfBirth: CalendarDate?)
        case unknown
        case expired
        case used
    }

    /// Stores a new token for `accountID`, valid from `now` for `lifetime`; returns the text to mail.
    static func issue(
        _ purpose: Purpose, accountID: UserID, newDateOfBirth: CalendarDate? = nil, now: Date,
        lifetime: Duration, on db: some StatementRunner
    ) async throws -> OpaqueToken {
        // With no `recent` instant there is nothing to hold the insert back.
        try await insert(
            purpose, accountID, newDateOfBirth, now: now, lifetime: lifetime, unlessAfter: nil, on: db)!
    }

    /// `issue`, unless a `purpose` token of the account was issued less than `interval` before `now`: then
    /// nothing is stored and the answer is nil (mail at most so often).
    static func issue(
        _ purpose: Purpose, accountID: UserID, now: Date, lifetime: Duration,
        unlessIssuedWithin interval: Duration, on db: some StatementRunner
    ) async throws -> OpaqueToken? {
        let recent = now.addingTimeInterval(-Double(interval.components.seconds))
        return try await insert(
            purpose, accountID, nil, now: now, lifetime: lifetime, unlessAfter: recent, on: db)
    }

    private static func insert(
        _ purpose: Purpose, _ accountID: UserID, _ newDateOfBirth: CalendarDate?, now: Date,
        lifetime: Duration, unlessAfter recent: Date?, on db: some StatementRunner
    ) async throws -> OpaqueToken? {
        let token = OpaqueToken.generate()
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        // A NULL `recent` makes the comparison NULL, so NOT EXISTS holds and the row goes in.
        let rows = try await db.query(
            """
            INSERT INTO identity.email_tokens (token_hash, account_id, purpose, new_date_of_birth, expires_at,
                created_at)
            SELECT \(token.storageHash), \(accountID)::uuid, \(purpose.rawValue),
                \(newDateOfBirth?.description)::date, \(expiresAt), \(now)
            WHERE NOT EXISTS (
                SELECT 1 FROM identity.email_tokens
                WHERE account_id = \(accountID)::uuid AND purpose = \(purpose.rawValue)
                    AND created_at > \(recent))
            """)
        return rows.affectedRows == 1 ? token : nil
    }

    /// Uses `token` for `purpose` if it is unused and unexpired at `now`. The row lock of the UPDATE makes it
    /// single-use under concurrent redemptions: the second waits, then finds it used.
    static func redeem(_ token: OpaqueToken, for purpose: Purpose, now: Date, on db: some StatementRunner)
        async throws -> Redemption
    {
        let rows = try await db.query(
            """
            UPDATE identity.email_tokens SET used_at = \(now)
            WHERE token_hash = \(token.storageHash) AND purpose = \(purpose.rawValue) AND used_at IS NULL
                AND expires_at > \(now)
            RETURNING account_id::text, new_date_of_birth::text
            """)
        guard let row = rows.first else { return try await refusal(of: token, for: purpose, on: db) }
        let (accountID, newDate) = try row.decode((UserID, String?).self)
        return .redeemed(accountID: accountID, newDateOfBirth: newDate.flatMap(CalendarDate.init(iso:)))
    }

    /// The account `token` was mailed to, if it is unused and unexpired at `now`; the token stays usable.
    static func liveAccount(
        of token: OpaqueToken, for purpose: Purpose, now: Date, on db: some StatementRunner
    ) async throws -> UserID? {
        let rows = try await db.pureRead(
            """
            SELECT account_id::text FROM identity.email_tokens
            WHERE token_hash = \(token.storageHash) AND purpose = \(purpose.rawValue) AND used_at IS NULL
                AND expires_at > \(now)
            """)
        return try rows.first?.decode(UserID.self, column: 0)
    }

    /// Why `token`, not live, cannot be used for `purpose`: unknown, used, or else expired.
    static func refusal(of token: OpaqueToken, for purpose: Purpose, on db: some StatementRunner) async throws
        -> Redemption
    {
        let found = try await db.pureRead(
            """
            SELECT used_at IS NOT NULL FROM identity.email_tokens
            WHERE token_hash = \(token.storageHash) AND purpose = \(purpose.rawValue)
            """)
        guard let used = try found.first?.decode(Bool.self, column: 0) else { return .unknown }
        return used ? .used : .expired
    }

    /// Marks every unused `purpose` token of `accountID` used, so only a newer one (or none) works.
    static func retire(_ purpose: Purpose, accountID: UserID, now: Date, on db: some StatementRunner)
        async throws
    {
        try await db.query(
            """
            UPDATE identity.email_tokens SET used_at = \(now)
            WHERE account_id = \(accountID)::uuid AND purpose = \(purpose.rawValue) AND used_at IS NULL
            """)
    }
}
