import KindredAPI
import KindredMessages
import KindredRPC

/// `GetParentalControls`, `GetParentalControlsStatus` and `UpdateParentalControls`: the rules live in
/// `MinorControls`.
extension FamilyAPI {
    func getParentalControls(_ request: Kindred_Family_V1_GetParentalControlsRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_GetParentalControlsResponse
    {
        let controls = try await controls.get(
            userID: request.userID, session: request.guardianSession,
            caller: try context.authenticatedCaller())
        return Kindred_Family_V1_GetParentalControlsResponse(controls: controls)
    }

    func getParentalControlsStatus(
        _ request: Kindred_Family_V1_GetParentalControlsStatusRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetParentalControlsStatusResponse {
        let status = try await controls.status(
            userID: request.userID, caller: try context.authenticatedCaller())
        return Kindred_Family_V1_GetParentalControlsStatusResponse(status: status)
    }

    func updateParentalControls(
        _ request: Kindred_Family_V1_UpdateParentalControlsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateParentalControlsResponse {
        let controls = try await controls.update(
            minorID: request.minorUserID, session: request.guardianSession, mask: request.updateMask,
            changes: request.controls, caller: try context.authenticatedCaller())
        return Kindred_Family_V1_UpdateParentalControlsResponse(controls: controls)
    }
}
