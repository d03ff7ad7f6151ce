import KindredAuth
import KindredHandlers
import KindredRPC

/// `VerifyEmail` and `ResendVerification`.
extension Accounts {
    /// Marks the email of the token's account verified and emits `user.email_verified`; returns the user id.
    func verifyEmail(token text: String) async throws -> UserID {
        try FieldViolations.require(["token": text])
        let now = clock.now
        let redemption = try await database.transaction { tx in
            let redemption = try await EmailTokenStore.redeem(
                OpaqueToken(text: text), for: .verifyEmail, now: now, on: tx)
            guard case .redeemed(let accountID, _) = redemption else { return redemption }
            try await EmailTokenStore.retire(.verifyEmail, accountID: accountID, now: now, on: tx)
            if try await AccountStore.markEmailVerified(id: accountID, now: now, on: tx) {
                try await emit(.emailVerified(userID: accountID), in: tx)
            }
            return redemption
        }
        guard case .redeemed(let accountID, _) = redemption else {
            throw IdentityError.linkRefused(redemption, link: "verification")
        }
        return accountID
    }

    /// Sends a new verification email if `email` belongs to an account still unverified and none was sent in
    /// the last minute (`IdentityMail.resendInterval`). The caller learns nothing either way: the answer is
    /// the same for any well-formed address.
    func resendVerification(to email: String) async throws {
        let email = try FieldViolations.email("email", email).address
        guard let account = try await AccountStore.addressee(email: email, emails: emails, on: database),
            !account.emailVerified
        else { return }
        try await mail.resend(
            .verifyEmail, lifetime: Self.emailTokenLifetime, to: account, now: clock.now, on: database,
            message: mail.verification)
    }
}
