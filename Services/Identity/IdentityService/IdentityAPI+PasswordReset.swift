import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `RequestPasswordReset` and `ResetPassword`: the rules live in `PasswordResets`.
extension IdentityAPI {
    func requestPasswordReset(
        _ request: Kindred_Identity_V1_RequestPasswordResetRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_RequestPasswordResetResponse {
        try await answering(noSoonerThan: Self.emailAnswerFloor) {
            try await credentials.resets.request(email: request.email)
        }
        return Kindred_Identity_V1_RequestPasswordResetResponse()
    }

    func resetPassword(
        _ request: Kindred_Identity_V1_ResetPasswordRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ResetPasswordResponse {
        try FieldViolations.require(["token": request.token, "new_password": request.newPassword])
        try await credentials.resets.reset(
            token: OpaqueToken(text: request.token), newPassword: request.newPassword)
        return Kindred_Identity_V1_ResetPasswordResponse()
    }
}
