import KindredHandlers

/// Where a photo's bytes live in the object store: `<profile-id>/<photo-id>`, the baby profile first so
/// that a profile's photos share a prefix (one directory, one S3 prefix) and move together when the
/// tables are distributed by profile.
struct PhotoObjectKey: Hashable, Sendable, CustomStringConvertible {
    let profile: BabyProfileID
    let photo: PhotoID

    init(profile: BabyProfileID, photo: PhotoID) {
        self.profile = profile
        self.photo = photo
    }

    /// The key a stored name stands for; nil for a name the store did not write. Only the canonical
    /// (lowercase) form names an object, so one key has one name.
    init?(profileName: String, photoName: String) {
        guard let profile = BabyProfileID(profileName), profile.description == profileName,
            let photo = PhotoID(photoName), photo.description == photoName
        else { return nil }
        self.init(profile: profile, photo: photo)
    }

    /// The profile's part of every key: its directory or prefix.
    var profileName: String { profile.description }
    /// The photo's part of the key: its file or object name within the profile's.
    var photoName: String { photo.description }

    var description: String { "\(profileName)/\(photoName)" }
}
