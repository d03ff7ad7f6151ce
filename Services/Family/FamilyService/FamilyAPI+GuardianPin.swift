import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func setGuardianPin(_ request: Kindred_Family_V1_SetGuardianPinRequest, context: ServerContext) async throws -> Kindred_Family_V1_SetGuardianPinResponse {
        throw RPCError(.unimplemented, "SetGuardianPin is not built yet")
    }

    func verifyGuardianPin(_ request: Kindred_Family_V1_VerifyGuardianPinRequest, context: ServerContext) async throws -> Kindred_Family_V1_VerifyGuardianPinResponse {
        throw RPCError(.unimplemented, "VerifyGuardianPin is not built yet")
    }

    func requestGuardianPinReset(_ request: Kindred_Family_V1_RequestGuardianPinResetRequest, context: ServerContext) async throws -> Kindred_Family_V1_RequestGuardianPinResetResponse {
        throw RPCError(.unimplemented, "RequestGuardianPinReset is not built yet")
    }

    func resetGuardianPin(_ request: Kindred_Family_V1_ResetGuardianPinRequest, context: ServerContext) async throws -> Kindred_Family_V1_ResetGuardianPinResponse {
        throw RPCError(.unimplemented, "ResetGuardianPin is not built yet")
    }
}
