import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetParentalControls`, `GetParentalControlsStatus` and `UpdateParentalControls`: the rules live in
/// `MinorControls`.
extension FamilyAPI {
    func getParentalControls(_ request: Kindred_Family_V1_GetParentalControlsRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_GetParentalControlsResponse
    {
        let caller = try context.authenticatedCaller()
        let controls = try await controls.get(
            of: try MinorControls.owner(named: request.userID, for: caller), session: request.guardianSession,
            caller: caller)
        return Kindred_Family_V1_GetParentalControlsResponse(controls: controls)
    }

    func getParentalControlsStatus(
        _ request: Kindred_Family_V1_GetParentalControlsStatusRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetParentalControlsStatusResponse {
        let caller = try context.authenticatedCaller()
        let status = try await controls.status(
            of: try MinorControls.owner(named: request.userID, for: caller), caller: caller)
        return Kindred_Family_V1_GetParentalControlsStatusResponse(status: status)
    }

    func updateParentalControls(
        _ request: Kindred_Family_V1_UpdateParentalControlsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateParentalControlsResponse {
        let caller = try context.authenticatedCaller()
        let controls = try await controls.update(try ControlsUpdate(request), caller: caller)
        return Kindred_Family_V1_UpdateParentalControlsResponse(controls: controls)
    }
}
