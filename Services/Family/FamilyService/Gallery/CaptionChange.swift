import KindredHandlers
import KindredMessages
import KindredRPC

/// An `UpdatePhotoCaptionRequest` whose fields were checked: the profile, its photo, and the caption as stored.
struct CaptionChange: Sendable, Equatable {
    let profile: BabyProfileID
    let photo: PhotoID
    let caption: String

    /// The change `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_UpdatePhotoCaptionRequest) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let photo: PhotoID? = violations.id("photo_id", request.photoID)
        caption = BabyGallery.caption(request.caption, &violations)
        (self.profile, self.photo) = try violations.throwIfAny(profile, photo)
    }
}
