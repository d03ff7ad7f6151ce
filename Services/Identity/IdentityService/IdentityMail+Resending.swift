import FoundationEssentials
import KindredAuth
import KindredMail
import KindredPostgres

/// The links a person asks for again by typing an email address (`ResendVerification`,
/// `RequestPasswordReset`): at most one a minute per account, so nobody can flood a mailbox through us.
extension IdentityMail {
    /// Stores a new `purpose` token of `account`, valid for `lifetime` from `now`, and queues the mail
    /// `message` makes of it (address, username, token), in one transaction; does nothing when the account
    /// got a `purpose` token in the last `resendInterval`.
    func resend(
        _ purpose: EmailTokenStore.Purpose, lifetime: Duration, to account: AccountStore.Addressee, now: Date,
        on database: PostgresPool, message: (String, String, OpaqueToken) throws -> MailMessage
    ) async throws {
        try await database.transaction { tx in
            guard
                let token = try await EmailTokenStore.issue(
                    purpose, accountID: account.id, now: now, lifetime: lifetime,
                    unlessIssuedWithin: Self.resendInterval, on: tx)
            else { return }
            try await send(message(account.email, account.username, token), in: tx)
        }
    }
}
