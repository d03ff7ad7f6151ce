import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `CreateBabyProfile`, `GetBabyProfile`, `UpdateBabyProfile`, `DeleteBabyProfile`, `ListMyBabyProfiles`,
/// `ListBabyProfileMembers`, `LeaveBabyProfile` and `RemoveBabyProfileMember`.
extension FamilyAPI {
    func createBabyProfile(
        _ request: Kindred_Family_V1_CreateBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_CreateBabyProfileResponse {
        let owner = try context.authenticatedCaller().account()
        let profile = try await babyProfiles.create(try BabyProfileDraft(request), by: owner)
        return Kindred_Family_V1_CreateBabyProfileResponse(profile: profile.proto)
    }

    func getBabyProfile(
        _ request: Kindred_Family_V1_GetBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetBabyProfileResponse {
        let reader = try context.authenticatedCaller().account()
        let profile = try await babyProfiles.profile(
            try FieldViolations.id("profile_id", request.profileID), as: reader)
        return Kindred_Family_V1_GetBabyProfileResponse(profile: profile.proto)
    }

    func updateBabyProfile(
        _ request: Kindred_Family_V1_UpdateBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateBabyProfileResponse {
        let owner = try context.authenticatedCaller().account()
        let change = try BabyProfileChange(mask: request.updateMask, to: request.profile)
        let profile = try await babyProfiles.update(change, by: owner)
        return Kindred_Family_V1_UpdateBabyProfileResponse(profile: profile.proto)
    }

    func deleteBabyProfile(
        _ request: Kindred_Family_V1_DeleteBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_DeleteBabyProfileResponse {
        let owner = try context.authenticatedCaller().account()
        try await babyProfiles.delete(try FieldViolations.id("profile_id", request.profileID), by: owner)
        return Kindred_Family_V1_DeleteBabyProfileResponse()
    }

    func listMyBabyProfiles(
        _ request: Kindred_Family_V1_ListMyBabyProfilesRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListMyBabyProfilesResponse {
        try await babyProfiles.myProfiles(try context.authenticatedCaller().account(), page: request.page)
    }

    func listBabyProfileMembers(
        _ request: Kindred_Family_V1_ListBabyProfileMembersRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListBabyProfileMembersResponse {
        let reader = try context.authenticatedCaller().account()
        return try await babyProfiles.members(
            of: try FieldViolations.id("profile_id", request.profileID), page: request.page, as: reader)
    }

    func leaveBabyProfile(
        _ request: Kindred_Family_V1_LeaveBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_LeaveBabyProfileResponse {
        let member = try context.authenticatedCaller().account()
        try await babyProfiles.leave(try FieldViolations.id("profile_id", request.profileID), member: member)
        return Kindred_Family_V1_LeaveBabyProfileResponse()
    }

    func removeBabyProfileMember(
        _ request: Kindred_Family_V1_RemoveBabyProfileMemberRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_RemoveBabyProfileMemberResponse {
        let owner = try context.authenticatedCaller().account()
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let member: UserID? = violations.id("user_id", request.userID)
        let (profileID, memberID) = try violations.throwIfAny(profile, member)
        try await babyProfiles.remove(memberID, from: profileID, by: owner)
        return Kindred_Family_V1_RemoveBabyProfileMemberResponse()
    }
}
