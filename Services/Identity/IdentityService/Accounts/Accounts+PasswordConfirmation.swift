import KindredHandlers

/// The password given again for `ChangeDateOfBirth` and `DeleteAccount`.
extension Accounts {
    /// Checks `password` against the account `accountID` with sign-in's rule (`PasswordSignIn.confirm`), on
    /// the same lockout.
    func confirmPassword(_ password: String, accountID: UserID) async throws {
        try await PasswordSignIn(
            database: database, lockout: lockout, passwords: passwords, emails: emails, logger: logger
        )
        .confirm(password, accountID: accountID)
    }
}
