import FoundationEssentials
import KindredRuntime

/// `kindred-family keys rotate-data`.
enum FamilyCommands {
    static let all = [rotateData]

    /// Seals guardian PIN hashes, reset addresses and gallery photos' bytes (under `KINDRED_FAMILY_PHOTO_ROOT`)
    /// under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "family") { environment, cipher in
        let photos = FilesystemPhotoStore(
            root: try FamilySettings.photoRoot(in: ProcessInfo.processInfo.environment))
        return GuardianPinSecrets(cipher: cipher).rotations(on: environment.database) + [
            PhotoObjectRotation(
                database: environment.database, photos: SealedPhotoStore(sealing: photos, with: cipher))
        ]
    }
}
