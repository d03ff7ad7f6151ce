import KindredAPI
import KindredAuth
import KindredMessages
import KindredRPC

/// `RequestPasswordReset` and `ResetPassword`: the rules live in `PasswordResets`.
extension IdentityAPI {
    /// How long `RequestPasswordReset` takes at least, whatever it did: a known email costs a token insert, a
    /// queued mail and a commit that an unknown one does not, and the time must not say which it was.
    static let resetRequestFloor: Duration = .milliseconds(200)

    func requestPasswordReset(
        _ request: Kindred_Identity_V1_RequestPasswordResetRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_RequestPasswordResetResponse {
        let answerAt = ContinuousClock.now + Self.resetRequestFloor
        try Self.require([("email", request.email)])
        let outcome: Result<Void, any Error>
        do {
            outcome = .success(try await credentials.resets.request(email: request.email))
        } catch {
            outcome = .failure(error)
        }
        try? await Task.sleep(until: answerAt)
        try outcome.get()
        return Kindred_Identity_V1_RequestPasswordResetResponse()
    }

    func resetPassword(
        _ request: Kindred_Identity_V1_ResetPasswordRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_ResetPasswordResponse {
        try Self.require([("token", request.token), ("new_password", request.newPassword)])
        try await credentials.resets.reset(
            token: OpaqueToken(text: request.token), newPassword: request.newPassword)
        return Kindred_Identity_V1_ResetPasswordResponse()
    }
}
