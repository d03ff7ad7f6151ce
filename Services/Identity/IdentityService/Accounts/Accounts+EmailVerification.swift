import KindredAuth
import KindredRPC

/// `VerifyEmail` and `ResendVerification`.
extension Accounts {
    /// A fresh verification email is sent at most this often per account, so `ResendVerification` cannot be
    /// used to flood someone's inbox.
    static let resendInterval: Duration = .seconds(60)

    /// Marks the email of the token's account verified and emits `user.email_verified`; returns the user id.
    func verifyEmail(token text: String) async throws -> String {
        try Self.requireToken(text)
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
            throw AccountError.linkRefused(redemption, link: "verification")
        }
        return accountID
    }

    /// Sends a new verification email if `email` belongs to an account still unverified and none was sent in
    /// the last minute. The caller learns nothing either way: the answer is the same for any well-formed address.
    func resendVerification(to email: String) async throws {
        var violations = FieldViolations()
        violations.add("email", AccountFieldRules.emailProblem(email))
        try violations.throwIfAny()
        guard let account = try await AccountStore.account(email: email, on: database), !account.verified
        else {
            return
        }
        let now = clock.now
        try await database.transaction { tx in
            if let last = try await EmailTokenStore.lastIssued(.verifyEmail, accountID: account.id, on: tx),
                now.timeIntervalSince(last) < Double(Self.resendInterval.components.seconds)
            {
                return
            }
            let token = try await EmailTokenStore.issue(
                .verifyEmail, accountID: account.id, now: now, lifetime: Self.emailTokenLifetime, on: tx)
            try await send(
                mail.verification(to: account.email, username: account.username, token: token), in: tx)
        }
    }

    /// A mailed token must be present; what it is worth is for the store to say.
    static func requireToken(_ text: String) throws(RPCError) {
        var violations = FieldViolations()
        if text.isEmpty { violations.add("token", "is required: the code from the email") }
        try violations.throwIfAny()
    }
}
