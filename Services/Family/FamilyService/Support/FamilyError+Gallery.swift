import KindredHandlers
import KindredRPC

/// The refusals of a baby profile's gallery; the refusals of the bytes themselves are `PhotoRejection`'s.
extension FamilyError {
    /// No such photo on the profile.
    static let photoNotFound = refusal(
        .notFound, "PHOTO_NOT_FOUND", "This photo does not exist or was deleted.")

    /// The profile holds `BabyGallery.maximumPhotos` photos already.
    static let galleryFull = refusal(
        .resourceExhausted, "GALLERY_FULL",
        "The gallery is full at 1,000 photos. Delete a photo to add another.")

    /// An upload whose first message is not the metadata, or that sends a second one.
    static let uploadMetadataFirst = refusal(
        .invalidArgument, "PHOTO_UPLOAD_OUT_OF_ORDER",
        "The upload must start with the photo's details, followed by its bytes.")

    /// An upload that ran past `PhotoOrphanSweep.uploadDeadline`.
    static let uploadTooSlow = refusal(
        .deadlineExceeded, "PHOTO_UPLOAD_TOO_SLOW",
        "The upload took too long. Try again on a better connection.")

    /// A chunk over `BabyGallery.maximumChunk`.
    static let uploadChunkTooLarge = refusal(
        .invalidArgument, "PHOTO_CHUNK_TOO_LARGE", "Send the photo in pieces of at most 1 MiB.")
}
