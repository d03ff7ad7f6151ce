import KindredAPI
import KindredMessages
import KindredRPC

/// `IssueDeviceModeTokens`: the rule lives in `Credentials+DeviceModes.swift`, who may call it included.
extension IdentityAPI {
    func issueDeviceModeTokens(
        _ request: Kindred_Identity_V1_IssueDeviceModeTokensRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_TokenResponse {
        try await credentials.deviceModeTokens(request, caller: try context.authenticatedCaller()).response
    }
}
