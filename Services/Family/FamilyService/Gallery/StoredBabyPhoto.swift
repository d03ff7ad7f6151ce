import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A row of `family.baby_photos`: a photo whose bytes are in the object store under `key`.
struct StoredBabyPhoto: Sendable {
    let id: PhotoID
    let profile: BabyProfileID
    let uploadedBy: UserID
    let caption: String
    let fileName: String
    let mediaType: String
    let width: Int
    let height: Int
    let byteCount: Int
    let squishCount: Int
    let createdAt: Date

    /// The row of an upload the store accepted.
    init(_ stored: StoredPhoto, by owner: UserID, caption: String, fileName: String, at now: Date) {
        self.init(
            id: stored.key.photo, profile: stored.key.profile, uploadedBy: owner, caption: caption,
            fileName: fileName, mediaType: stored.facts.format.mediaType, width: stored.facts.width,
            height: stored.facts.height, byteCount: stored.byteCount, squishCount: 0, createdAt: now)
    }

    init(
        id: PhotoID, profile: BabyProfileID, uploadedBy: UserID, caption: String, fileName: String,
        mediaType: String, width: Int, height: Int, byteCount: Int, squishCount: Int, createdAt: Date
    ) {
        self.id = id
        self.profile = profile
        self.uploadedBy = uploadedBy
        self.caption = caption
        self.fileName = fileName
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.squishCount = squishCount
        self.createdAt = createdAt
    }

    var key: PhotoObjectKey { PhotoObjectKey(profile: profile, photo: id) }

    var proto: Kindred_Family_V1_BabyPhoto {
        Kindred_Family_V1_BabyPhoto(
            profileID: profile.description, photoID: id.description, uploadedByUserID: uploadedBy.description,
            caption: caption, fileName: fileName, mediaType: mediaType, width: Int32(width),
            height: Int32(height),
            byteCount: Int64(byteCount), squishCount: Int32(squishCount),
            createdAt: createdAt)
    }
}
