import KindredAuth
import KindredHandlers
import KindredRPC

/// `DeleteAccount`.
extension Accounts {
    /// Deletes `accountID` once its password is given again. The row's email tokens and refresh tokens are
    /// deleted with it (ON DELETE CASCADE), so no token of the account can be refreshed; `user.deleted` is
    /// emitted in the same transaction so every other service can forget the user.
    func deleteAccount(_ accountID: UserID, password: String) async throws {
        try FieldViolations.require(["password": password])
        try await confirmPassword(password, accountID: accountID)
        try await database.transaction { tx in
            guard try await AccountStore.delete(id: accountID, on: tx) else { throw IdentityError.noAccount }
            try await emit(.deleted(userID: accountID), in: tx)
        }
    }
}
