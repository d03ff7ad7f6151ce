import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Squishes on a baby profile's photos and arrival announcement: `SquishPhoto`, `UnsquishPhoto`,
/// `SquishArrival`, `UnsquishArrival`.
extension FamilyAPI {
    func squishPhoto(_ request: Kindred_Family_V1_SquishPhotoRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_SquishPhotoResponse
    {
        let caller = try context.authenticatedCaller().account()
        let (profile, photo) = try BabyGallery.ids(request.profileID, request.photoID)
        let count = try await squishes.set(.photo(photo), of: profile, by: caller, squished: true)
        return Kindred_Family_V1_SquishPhotoResponse(squishCount: Int32(count), squishedByMe: true)
    }

    func unsquishPhoto(_ request: Kindred_Family_V1_UnsquishPhotoRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_UnsquishPhotoResponse
    {
        let caller = try context.authenticatedCaller().account()
        let (profile, photo) = try BabyGallery.ids(request.profileID, request.photoID)
        let count = try await squishes.set(.photo(photo), of: profile, by: caller, squished: false)
        return Kindred_Family_V1_UnsquishPhotoResponse(squishCount: Int32(count), squishedByMe: false)
    }

    func squishArrival(_ request: Kindred_Family_V1_SquishArrivalRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_SquishArrivalResponse
    {
        let caller = try context.authenticatedCaller().account()
        let count = try await squishes.set(
            .arrival, of: try FieldViolations.id("profile_id", request.profileID), by: caller, squished: true)
        return Kindred_Family_V1_SquishArrivalResponse(squishCount: Int32(count), squishedByMe: true)
    }

    func unsquishArrival(_ request: Kindred_Family_V1_UnsquishArrivalRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_UnsquishArrivalResponse
    {
        let caller = try context.authenticatedCaller().account()
        let count = try await squishes.set(
            .arrival, of: try FieldViolations.id("profile_id", request.profileID), by: caller, squished: false
        )
        return Kindred_Family_V1_UnsquishArrivalResponse(squishCount: Int32(count), squishedByMe: false)
    }
}
