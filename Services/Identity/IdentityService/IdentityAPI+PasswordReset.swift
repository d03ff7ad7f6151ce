import KindredAPI
import KindredAuth
import KindredMessages
import KindredRPC

/// `ResetPassword`: the rule lives in `PasswordResets`.
extension IdentityAPI {
    func resetPassword(
        _ request: Kindred_Identity_V1_ResetPasswordRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ResetPasswordResponse {
        try Self.require([("token", request.token), ("new_password", request.newPassword)])
        try await credentials.resets.reset(
            token: OpaqueToken(text: request.token), newPassword: request.newPassword)
        return Kindred_Identity_V1_ResetPasswordResponse()
    }
}
