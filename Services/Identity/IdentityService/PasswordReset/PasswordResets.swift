import KindredAuth
import KindredMail
import KindredPostgres

/// Password reset by email: `request` mails a single-use token valid for an hour, `reset` sets the new
/// password with it, revokes every refresh token of the account and clears its failed sign-ins.
struct PasswordResets: Sendable {
    static let lifetime: Duration = .seconds(60 * 60)
    /// At most one reset mail per account in this time, so nobody can flood a mailbox through us.
    static let resendInterval: Duration = .seconds(60)

    let database: PostgresPool
    let passwords: PasswordHasher
    let refreshTokens: RefreshTokenStore
    let lockout: SignInLockout
    let linkBase: String
    let mailOutbox = MailOutbox(schema: "identity")

    /// Stores a reset token for the account registered with `email` and queues its mail, in one transaction;
    /// does nothing for an unknown email or when the last reset mail is under a minute old.
    func request(email: String) async throws {
        let token = OpaqueToken.generate()
        try await database.transaction { tx in
            let accounts = try await tx.query(
                "SELECT id::text, username, email FROM identity.accounts WHERE lower(email) = lower(\(email))"
            )
            guard let row = accounts.first else { return }
            let (id, username, address) = try row.decode((String, String, String).self)
            let stored = try await tx.query(
                """
                INSERT INTO identity.email_tokens (token_hash, account_id, purpose, expires_at)
                SELECT \(token.storageHash), \(id)::uuid, 'reset_password',
                    now() + \(Self.lifetime.wholeSeconds) * interval '1 second'
                WHERE NOT EXISTS (
                    SELECT 1 FROM identity.email_tokens
                    WHERE account_id = \(id)::uuid AND purpose = 'reset_password'
                        AND created_at > now() - \(Self.resendInterval.wholeSeconds) * interval '1 second')
                """)
            guard stored.affectedRows == 1 else { return }
            let mail = try PasswordResetMail.message(
                to: address, username: username, token: token, linkBase: linkBase)
            try await mailOutbox.enqueue(mail, in: tx)
        }
    }

    /// Sets `newPassword` on the account `token` was mailed to, using the token up.
    func reset(token: OpaqueToken, newPassword: String) async throws {
        guard let (username, email) = try await pendingAccount(token) else {
            throw CredentialError.invalidResetToken
        }
        if let problem = PasswordPolicy.problem(newPassword, username: username, email: email) {
            throw CredentialError.passwordRejected(problem)
        }
        let hash = try await hashing { () async throws(PasswordHasherError) in
            try await passwords.hash(newPassword)
        }
        try await database.transaction { tx in
            // The row lock makes the token single-use when two resets race: the second finds it used.
            let redeemed = try await tx.query(
                """
                UPDATE identity.email_tokens SET used_at = now()
                WHERE token_hash = \(token.storageHash) AND purpose = 'reset_password' AND used_at IS NULL
                    AND expires_at > now()
                RETURNING account_id::text
                """)
            guard let id = try redeemed.first?.decode(String.self, column: 0) else {
                throw CredentialError.invalidResetToken
            }
            try await tx.query("UPDATE identity.accounts SET password_hash = \(hash) WHERE id = \(id)::uuid")
            try await tx.query(
                """
                UPDATE identity.email_tokens SET used_at = now()
                WHERE account_id = \(id)::uuid AND purpose = 'reset_password' AND used_at IS NULL
                """)
            _ = try await refreshTokens.revokeAll(of: id, in: tx)
            try await lockout.clear([username, email], in: tx)
        }
    }

    /// The username and email of the account a live reset token belongs to.
    private func pendingAccount(_ token: OpaqueToken) async throws -> (String, String)? {
        let rows = try await database.query(
            """
            SELECT a.username, a.email FROM identity.email_tokens t
            JOIN identity.accounts a ON a.id = t.account_id
            WHERE t.token_hash = \(token.storageHash) AND t.purpose = 'reset_password' AND t.used_at IS NULL
                AND t.expires_at > now()
            """)
        return try rows.first?.decode((String, String).self)
    }
}
