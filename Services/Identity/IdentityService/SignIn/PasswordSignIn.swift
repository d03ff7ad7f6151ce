import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// The `password` grant's rule: who a username-or-email and password sign in as.
///
/// A wrong password and an unknown identifier take the same path and about the same time: one lookup and
/// one Argon2id verification (against a decoy hash when there is no account), then the same answer. Whether
/// the email is verified is told only to someone whose password checked out.
struct PasswordSignIn: Sendable {
    let database: PostgresPool
    let lockout: SignInLockout
    let passwords: PasswordHasher
    /// Finds an account by its email's blind index.
    let emails: AccountEmails
    let logger: Logger

    /// The account `identifier` (a username or an email) and `password` sign in to, and its token's claims.
    func signIn(identifier typed: String, password: String) async throws
        -> (account: UserID, subject: TokenSubject)
    {
        let identifier = Self.trimmed(typed)
        try await lockout.admit(identifier)
        guard
            let account = try await AccountStore.signInAccount(
                identifier: identifier, emails: emails, on: database)
        else {
            try await hashing { try await passwords.verifyAgainstDecoy(password) }
            throw IdentityError.invalidCredentials
        }
        let verification = try await hashing {
            try await passwords.verify(password, against: account.passwordHash)
        }
        guard case .match(let needsRehash) = verification else { throw IdentityError.invalidCredentials }
        try await lockout.clear([identifier], on: database)
        if needsRehash { await rehash(account, password) }
        guard account.emailVerified else { throw IdentityError.emailNotVerified }
        return (account.id, account.subject)
    }

    /// Stores the password under the current cost; a failure only delays that to the next sign-in.
    private func rehash(_ account: AccountStore.SignInAccount, _ password: String) async {
        do {
            let hash = try await passwords.hash(password)
            try await AccountStore.setPasswordHash(
                id: account.id, to: hash, replacing: account.passwordHash, on: database)
        } catch {
            logger.warning(
                "cannot rehash a password", metadata: ["account": "\(account.id)", "error": "\(error)"])
        }
    }

    /// What the user typed, without the spaces a keyboard may add around it.
    static func trimmed(_ identifier: String) -> String {
        guard let first = identifier.firstIndex(where: { !$0.isWhitespace }),
            let last = identifier.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(identifier[first...last])
    }
}
