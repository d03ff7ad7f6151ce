import Foundation

/// Where a photo's bytes live in the object store: `<profile-id>/<photo-id>`, the baby profile first so
/// that a profile's photos share a prefix (one directory, one S3 prefix) and move together when the
/// tables are distributed by profile.
struct PhotoObjectKey: Hashable, Sendable, CustomStringConvertible {
    let profile: UUID
    let photo: UUID

    init(profile: UUID, photo: UUID) {
        self.profile = profile
        self.photo = photo
    }

    /// The key named by `<profile-id>/<photo-id>` (lowercase UUIDs, as `description` writes them).
    init?(profile profileName: String, photo photoName: String) {
        guard let profile = Self.uuid(profileName), let photo = Self.uuid(photoName) else { return nil }
        self.init(profile: profile, photo: photo)
    }

    /// The profile's part of every key: its directory or prefix.
    var profileName: String { profile.uuidString.lowercased() }
    /// The photo's part of the key: its file or object name within the profile's.
    var photoName: String { photo.uuidString.lowercased() }

    var description: String { "\(profileName)/\(photoName)" }

    /// Only the canonical form names an object, so one key has one name.
    private static func uuid(_ name: String) -> UUID? {
        guard let uuid = UUID(uuidString: name), uuid.uuidString.lowercased() == name else { return nil }
        return uuid
    }
}
