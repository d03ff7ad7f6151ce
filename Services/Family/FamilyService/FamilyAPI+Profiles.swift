import KindredAPI
import KindredMessages
import KindredRPC

/// `GetProfile` and `UpdateProfile`.
extension FamilyAPI {
    func getProfile(
        _ request: Kindred_Family_V1_GetProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetProfileResponse {
        let caller = try context.authenticatedCaller()
        let subject = try Profiles.subject(named: request.userID, for: caller)
        return Kindred_Family_V1_GetProfileResponse(
            profile: try await profiles.profile(of: subject, as: caller))
    }

    func updateProfile(
        _ request: Kindred_Family_V1_UpdateProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateProfileResponse {
        Kindred_Family_V1_UpdateProfileResponse(
            profile: try await profiles.update(
                mask: request.updateMask, to: request.profile, as: try context.authenticatedCaller()))
    }
}
