import KindredAuth
import KindredMail
import KindredRuntime

/// The family service's own configuration, from the environment, read and checked in this one place:
///
/// - `KINDRED_FAMILY_LINK_BASE`: where links in emails point (default `http://localhost:8080`): an `http://`
///   or `https://` URL.
/// - `KINDRED_FAMILY_PHOTO_ROOT`: the directory gallery photos are stored under (default `var/photos`, relative
///   to the working directory like the rest of `var/`); it is created when missing.
/// - `KINDRED_DATA_KEYS` (or `KINDRED_DATA_KEYS_FILE`, required): family's data keys, which seal its sensitive
///   columns, photos and outboxes (`FieldCipher.configured`).
struct FamilySettings: Sendable {
    /// The mail, with its links under the configured link base, sealed under family's data keys.
    let mail: FamilyMail
    /// Where gallery photos' bytes are stored.
    let photoRoot: String

    /// Reads the settings; an unusable one is a one-line `StartupError` naming its variable.
    init(environment: [String: String]) throws(StartupError) {
        let links = try LinkBase.configured(for: "family", in: environment)
        mail = FamilyMail(links: links, cipher: try FieldCipher.configured(for: "family", in: environment))
        photoRoot = try Self.photoRoot(in: environment)
    }

    /// `KINDRED_FAMILY_PHOTO_ROOT`, or the default; an empty one is refused rather than read as the
    /// working directory, whose files the orphan sweep would then walk.
    static func photoRoot(in environment: [String: String]) throws(StartupError) -> String {
        guard let root = environment["KINDRED_FAMILY_PHOTO_ROOT"] else {
            return FilesystemPhotoStore.defaultRoot
        }
        guard !root.allSatisfy(\.isWhitespace) else {
            throw StartupError("KINDRED_FAMILY_PHOTO_ROOT is empty; set it to a directory or leave it unset.")
        }
        return root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }
}
