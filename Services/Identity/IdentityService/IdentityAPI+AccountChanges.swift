import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `ChangeDateOfBirth`, `ConfirmDateOfBirthChange` and `DeleteAccount`: changes that need the password again.
extension IdentityAPI {
    func changeDateOfBirth(
        _ request: Kindred_Identity_V1_ChangeDateOfBirthRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ChangeDateOfBirthResponse {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        guard let accountID = caller.accountUserID else { throw IdentityError.noAccount }
        try await accounts.requestDateOfBirthChange(
            accountID: accountID, password: request.password, dateOfBirth: request.dateOfBirth)
        return Kindred_Identity_V1_ChangeDateOfBirthResponse()
    }

    func confirmDateOfBirthChange(
        _ request: Kindred_Identity_V1_ConfirmDateOfBirthChangeRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ConfirmDateOfBirthChangeResponse {
        let band = try await accounts.confirmDateOfBirthChange(token: request.token)
        return Kindred_Identity_V1_ConfirmDateOfBirthChangeResponse(ageBand: band.proto)
    }

    func deleteAccount(
        _ request: Kindred_Identity_V1_DeleteAccountRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_DeleteAccountResponse {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        guard let accountID = caller.accountUserID else { throw IdentityError.noAccount }
        try await accounts.deleteAccount(accountID, password: request.password)
        return Kindred_Identity_V1_DeleteAccountResponse()
    }
}
