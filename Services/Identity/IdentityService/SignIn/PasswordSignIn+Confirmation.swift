import KindredHandlers

/// The password given again by someone already signed in: for `ChangeDateOfBirth`, `DeleteAccount`, and
/// parent mode on a family device (`IssueDeviceModeTokens`).
extension PasswordSignIn {
    /// Checks `password` against the account `accountID` before a sensitive step. A wrong one counts toward
    /// the sign-in lockout of the account's username, and while that is locked no password is checked: the
    /// holder of a stolen access token gets no more guesses here than at sign-in (README, "The lockout").
    func confirm(_ password: String, accountID: UserID) async throws {
        guard let account = try await AccountStore.passwordCheck(id: accountID, on: database) else {
            throw IdentityError.noAccount
        }
        try await lockout.admit(account.username)
        let verification = try await hashing {
            try await passwords.verify(password, against: account.passwordHash)
        }
        guard case .match = verification else { throw IdentityError.passwordIncorrect }
        try await lockout.clear([account.username], on: database)
    }
}
