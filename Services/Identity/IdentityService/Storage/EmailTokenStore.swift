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
        /// Valid until now and now used: the account it belongs to, and the date a confirmation carries as
        /// stored (`BirthDates` opens it, bound to the token).
        case redeemed(accountID: UserID, newDateOfBirth: StoredBirthDate?)
        case unknown
        case expired
        case used
    }

    /// Stores a new token for `accountID`, valid from `now` for `lifetime`; returns the text to mail.
    static func issue(
        _ purpose: Purpose, accountID: UserID, now: Date, lifetime: Duration, on db: some StatementRunner
    ) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        // With no `recent` instant there is nothing to hold the insert back.
        _ = try await insert(
            token, purpose, accountID, nil, now: now, lifetime: lifetime, unlessAfter: nil, on: db)
        return token
    }

    /// Stores a new `confirm_date_of_birth` token for `accountID` carrying `newDate`, sealed by `dates` and bound
    /// to the token; returns the text to mail.
    static func issueDateOfBirthConfirmation(
        accountID: UserID, newDate: CalendarDate, dates: BirthDates, now: Date, lifetime: Duration,
        on db: some StatementRunner
    ) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        let sealed = dates.seal(newDate, at: .emailToken(tokenHash: token.storageHash))
        _ = try await insert(
            token, .confirmDateOfBirth, accountID, sealed, now: now, lifetime: lifetime, unlessAfter: nil,
            on: db)
        return token
    }

    /// `issue`, unless a `purpose` token of the account was issued less than `interval` before `now`: then
    /// nothing is stored and the answer is nil (mail at most so often).
    static func issue(
        _ purpose: Purpose, accountID: UserID, now: Date, lifetime: Duration,
        unlessIssuedWithin interval: Duration, on db: some StatementRunner
    ) async throws -> OpaqueToken? {
        let recent = now.addingTimeInterval(-Double(interval.components.seconds))
        let token = OpaqueToken.generate()
        let inserted = try await insert(
            token, purpose, accountID, nil, now: now, lifetime: lifetime, unlessAfter: recent, on: db)
        return inserted ? token : nil
    }

    private static func insert(
        _ token: OpaqueToken, _ purpose: Purpose, _ accountID: UserID, _ sealedNewDateOfBirth: [UInt8]?,
        now: Date, lifetime: Duration, unlessAfter recent: Date?, on db: some StatementRunner
    ) async throws -> Bool {
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        // A NULL `recent` makes the comparison NULL, so NOT EXISTS holds and the row goes in.
        let rows = try await db.query(
            """
            INSERT INTO identity.email_tokens (token_hash, account_id, purpose, new_date_of_birth_sealed,
                expires_at, created_at)
            SELECT \(token.storageHash), \(accountID)::uuid, \(purpose.rawValue),
                \(sealedNewDateOfBirth)::bytea, \(expiresAt), \(now)
            WHERE NOT EXISTS (
                SELECT 1 FROM identity.email_tokens
                WHERE account_id = \(accountID)::uuid AND purpose = \(purpose.rawValue)
                    AND created_at > \(recent))
            """)
        return rows.affectedRows == 1
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
            RETURNING account_id::text, new_date_of_birth::text, new_date_of_birth_sealed
            """)
        guard let row = rows.first else { return try await refusal(of: token, for: purpose, on: db) }
        let (accountID, plain, sealed) = try row.decode((UserID, String?, [UInt8]?).self)
        let newDate = StoredBirthDate(plain: plain, sealed: sealed)
        return .redeemed(accountID: accountID, newDateOfBirth: newDate.isEmpty ? nil : newDate)
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
