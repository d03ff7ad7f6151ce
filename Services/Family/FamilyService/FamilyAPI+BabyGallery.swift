import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// A baby profile's gallery: `UploadPhoto`, `GetPhoto`, `DownloadPhoto`, `ListPhotos`, `UpdatePhotoCaption`,
/// `DeletePhoto`.
extension FamilyAPI {
    func uploadPhoto(_ requests: RequestStream<Kindred_Family_V1_UploadPhotoRequest>, context: ServerContext)
        async throws -> Kindred_Family_V1_UploadPhotoResponse
    {
        let owner = try context.authenticatedCaller(as: .user).account()
        return Kindred_Family_V1_UploadPhotoResponse(
            photo: try await gallery.upload(requests, by: owner).proto)
    }

    func getPhoto(_ request: Kindred_Family_V1_GetPhotoRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_GetPhotoResponse
    {
        let reader = try context.authenticatedCaller(as: .user).account()
        let (profile, photo) = try BabyGallery.ids(request.profileID, request.photoID)
        let stored = try await gallery.photo(photo, of: profile, readBy: reader)
        return Kindred_Family_V1_GetPhotoResponse(photo: stored.proto)
    }

    func downloadPhoto(
        _ request: Kindred_Family_V1_DownloadPhotoRequest,
        responses: ResponseStreamWriter<Kindred_Family_V1_DownloadPhotoResponse>, context: ServerContext
    ) async throws {
        let reader = try context.authenticatedCaller(as: .user).account()
        let (profile, photo) = try BabyGallery.ids(request.profileID, request.photoID)
        try await gallery.download(photo, of: profile, readBy: reader) { response in
            try await responses.write(response)
        }
    }

    func listPhotos(_ request: Kindred_Family_V1_ListPhotosRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_ListPhotosResponse
    {
        let reader = try context.authenticatedCaller(as: .user).account()
        return try await gallery.list(try PhotoQuery(request), readBy: reader)
    }

    func updatePhotoCaption(_ request: Kindred_Family_V1_UpdatePhotoCaptionRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_UpdatePhotoCaptionResponse
    {
        let owner = try context.authenticatedCaller(as: .user).account()
        let photo = try await gallery.updateCaption(try CaptionChange(request), by: owner)
        return Kindred_Family_V1_UpdatePhotoCaptionResponse(photo: photo.proto)
    }

    func deletePhoto(_ request: Kindred_Family_V1_DeletePhotoRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_DeletePhotoResponse
    {
        let owner = try context.authenticatedCaller(as: .user).account()
        let (profile, photo) = try BabyGallery.ids(request.profileID, request.photoID)
        try await gallery.delete(photo, of: profile, by: owner)
        return Kindred_Family_V1_DeletePhotoResponse()
    }
}
