import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetMe`, `GetAccount`, `GetAgeRange` and `SearchUsers`.
extension IdentityAPI {
    func getMe(
        _ request: Kindred_Identity_V1_GetMeRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_GetMeResponse {
        Kindred_Identity_V1_GetMeResponse(
            account: try await accounts.me(try context.authenticatedCaller()).proto)
    }

    func getAccount(
        _ request: Kindred_Identity_V1_GetAccountRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_GetAccountResponse {
        let caller = try context.authenticatedCaller()
        return switch try await accounts.account(try FieldViolations.userID(request.userID), as: caller) {
        case .ownerView(let account): Kindred_Identity_V1_GetAccountResponse(view: .account(account.proto))
        case .publicView(let account):
            Kindred_Identity_V1_GetAccountResponse(view: .publicAccount(account.proto))
        }
    }

    func getAgeRange(
        _ request: Kindred_Identity_V1_GetAgeRangeRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_GetAgeRangeResponse {
        let caller = try context.authenticatedCaller()
        let userID = request.userID.isEmpty ? nil : try FieldViolations.userID(request.userID)
        let range = try await accounts.ageRange(of: userID, as: caller)
        return Kindred_Identity_V1_GetAgeRangeResponse(
            ageBand: range.band.proto, parentalControls: range.parentalControls)
    }

    func searchUsers(
        _ request: Kindred_Identity_V1_SearchUsersRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_SearchUsersResponse {
        _ = try context.authenticatedCaller()
        let found = try await accounts.searchUsers(request)
        return Kindred_Identity_V1_SearchUsersResponse(
            users: found.users.map(\.proto),
            page: Kindred_Common_V1_PageResponse(nextPageToken: found.nextPageToken))
    }
}
