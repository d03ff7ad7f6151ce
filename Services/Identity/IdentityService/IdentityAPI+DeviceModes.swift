import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER (wip/modes replaces this file before anything lands): device-mode tokens.
extension IdentityAPI {
    func issueDeviceModeTokens(
        _ request: Kindred_Identity_V1_IssueDeviceModeTokensRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_TokenResponse {
        throw RPCError(.unimplemented, "IssueDeviceModeTokens is not built yet")
    }
}
