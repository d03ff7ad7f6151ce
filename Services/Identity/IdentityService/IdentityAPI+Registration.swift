import KindredAPI
import KindredMessages
import KindredRPC

/// `RegisterAccount`, `VerifyEmail` and `ResendVerification`: public, the way into an account.
extension IdentityAPI {
    func registerAccount(
        _ request: Kindred_Identity_V1_RegisterAccountRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_RegisterAccountResponse {
        Kindred_Identity_V1_RegisterAccountResponse(account: try await accounts.register(request).proto)
    }

    func verifyEmail(
        _ request: Kindred_Identity_V1_VerifyEmailRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_VerifyEmailResponse {
        Kindred_Identity_V1_VerifyEmailResponse(
            userID: try await accounts.verifyEmail(token: request.token).description)
    }

    func resendVerification(
        _ request: Kindred_Identity_V1_ResendVerificationRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ResendVerificationResponse {
        try await answering(noSoonerThan: Self.emailAnswerFloor) {
            try await accounts.resendVerification(to: request.email)
        }
        return Kindred_Identity_V1_ResendVerificationResponse()
    }
}
