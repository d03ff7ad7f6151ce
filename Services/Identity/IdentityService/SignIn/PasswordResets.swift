import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// Password reset by email: `request` mails a single-use token valid for an hour, `reset` sets the new
/// password with it, revokes every refresh token of the account and clears its failed sign-ins.
struct PasswordResets: Sendable {
    static let lifetime: Duration = .seconds(60 * 60)

    let database: PostgresPool
    let passwords: PasswordHasher
    let refreshTokens: RefreshTokenStore
    let lockout: SignInLockout
    let mail: IdentityMail
    let clock: WallClock

    /// Opens the addresses and finds an account by its email's blind index.
    var emails: AccountEmails { AccountEmails(cipher: mail.outbox.cipher, secret: lockout.secret) }

    /// Stores a reset token for the account registered with `email` and queues its mail, in one transaction;
    /// does nothing for an unknown email or when the account got a reset mail in the last minute.
    func request(email: String) async throws {
        let email = try FieldViolations.email("email", email).address
        guard let account = try await AccountStore.addressee(email: email, emails: emails, on: database)
        else { return }
        try await mail.resend(
            .resetPassword, lifetime: Self.lifetime, to: account, now: clock.now, on: database,
            message: mail.passwordReset)
    }

    /// Sets `newPassword` on the account `token` was mailed to, using the token up. The password is checked
    /// before the token is used, so a refused one leaves the link working.
    func reset(token: OpaqueToken, newPassword: String) async throws {
        let now = clock.now
        guard
            let accountID = try await EmailTokenStore.liveAccount(
                of: token, for: .resetPassword, now: now, on: database),
            let account = try await AccountStore.addressee(id: accountID, emails: emails, on: database)
        else {
            let refusal = try await EmailTokenStore.refusal(of: token, for: .resetPassword, on: database)
            throw IdentityError.linkRefused(refusal, link: "password reset")
        }
        if let problem = PasswordPolicy.problem(newPassword, username: account.username, email: account.email)
        {
            throw FieldViolations.single("new_password", problem)
        }
        let hash = try await hashing { try await passwords.hash(newPassword) }
        try await database.transaction { tx in
            let redemption = try await EmailTokenStore.redeem(token, for: .resetPassword, now: now, on: tx)
            guard case .redeemed(let id, _) = redemption else {
                throw IdentityError.linkRefused(redemption, link: "password reset")
            }
            try await AccountStore.setPasswordHash(id: id, to: hash, on: tx)
            try await EmailTokenStore.retire(.resetPassword, accountID: id, now: now, on: tx)
            try await refreshTokens.revokeAll(of: id, on: tx)
            try await lockout.clear([account.username, account.email], on: tx)
        }
    }
}
