import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `SetGuardianPin`, `VerifyGuardianPin`, `RequestGuardianPinReset` and `ResetGuardianPin`: the rules live in
/// `GuardianPins`.
extension FamilyAPI {
    func setGuardianPin(_ request: Kindred_Family_V1_SetGuardianPinRequest, context: ServerContext)
        async throws
        -> Kindred_Family_V1_SetGuardianPinResponse
    {
        let caller = try context.authenticatedCaller()
        try await pins.set(try NewGuardianPin(request), caller: caller)
        return Kindred_Family_V1_SetGuardianPinResponse()
    }

    func verifyGuardianPin(_ request: Kindred_Family_V1_VerifyGuardianPinRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_VerifyGuardianPinResponse
    {
        let caller = try context.authenticatedCaller()
        let session = try await pins.verify(try PinAttempt(request), caller: caller)
        return Kindred_Family_V1_VerifyGuardianPinResponse(
            guardianSession: session.token.text, expiresAt: session.expiresAt)
    }

    func requestGuardianPinReset(
        _ request: Kindred_Family_V1_RequestGuardianPinResetRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_RequestGuardianPinResetResponse {
        let caller = try context.authenticatedCaller()
        let expiresAt = try await pins.requestReset(
            of: try FieldViolations.id("minor_user_id", request.minorUserID), caller: caller)
        return Kindred_Family_V1_RequestGuardianPinResetResponse(
            expiresAt: expiresAt)
    }

    func resetGuardianPin(_ request: Kindred_Family_V1_ResetGuardianPinRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_ResetGuardianPinResponse
    {
        let minorID = try await pins.reset(
            token: request.token, pin: request.pin, confirmation: request.pinConfirmation)
        return Kindred_Family_V1_ResetGuardianPinResponse(minorUserID: minorID.description)
    }
}
