import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL sign-in and tokens run on `identity.accounts`: the password hash, and the claims of a token.
extension AccountStore {
    /// An account as the password grant sees it.
    struct SignInAccount: Sendable {
        let subject: TokenSubject
        let passwordHash: String
        let emailVerified: Bool
        let id: UserID
    }

    /// The account whose username or email is `identifier`, ignoring case: the email by its blind index under
    /// `emails`, or as the plaintext of an account from before sealing (each an index probe).
    static func signInAccount(identifier: String, emails: AccountEmails, on db: some StatementRunner)
        async throws -> SignInAccount?
    {
        let rows = try await db.pureRead(
            """
            SELECT id::text, role, age_band, parental_controls, password_hash, email_verified_at IS NOT NULL
            FROM identity.accounts
            WHERE lower(username) = lower(\(identifier)) OR email_index = \(emails.index(identifier))::bytea
               OR lower(email) = lower(\(identifier))
            """)
        return try rows.first.map { row in
            let (id, role, band, controls, hash, verified) = try row.decode(
                (UserID, String, String, Bool, String, Bool).self)
            return SignInAccount(
                subject: try tokenSubject(id, role: role, band: band, parentalControls: controls),
                passwordHash: hash, emailVerified: verified,
                id: id)
        }
    }

    /// The claims of account `id` now, or nil when it is gone.
    static func tokenSubject(id: UserID, on db: some StatementRunner) async throws -> TokenSubject? {
        let rows = try await db.pureRead(
            "SELECT id::text, role, age_band, parental_controls FROM identity.accounts WHERE id = \(id)::uuid"
        )
        return try rows.first.map { row in
            let (id, role, band, controls) = try row.decode((UserID, String, String, Bool).self)
            return try tokenSubject(id, role: role, band: band, parentalControls: controls)
        }
    }

    /// Stores `hash` as the account's password hash; with `previous`, only if the stored one is still that
    /// (a rehash at sign-in must not undo a reset that happened meanwhile). False if nothing was stored.
    @discardableResult
    static func setPasswordHash(
        id: UserID, to hash: String, replacing previous: String? = nil, on db: some StatementRunner
    ) async throws -> Bool {
        try await db.query(
            """
            UPDATE identity.accounts SET password_hash = \(hash)
            WHERE id = \(id)::uuid AND (\(previous)::text IS NULL OR password_hash = \(previous))
            """
        ).affectedRows == 1
    }

    /// The claims of account `id` from its `role`, `age_band` and `parental_controls` columns, wherever a
    /// statement read them (the refresh grant reads them in its rotation).
    static func tokenSubject(_ id: UserID, role: String, band: String, parentalControls: Bool) throws
        -> TokenSubject
    {
        TokenSubject(
            holder: .user(id), role: try value(role, row: id), ageBand: try value(band, row: id),
            parentalControls: parentalControls)
    }
}
