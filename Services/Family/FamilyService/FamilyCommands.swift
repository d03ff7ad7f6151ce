import FoundationEssentials
import KindredMail
import KindredRuntime

/// `kindred-family keys rotate-data`.
enum FamilyCommands {
    static let all = [rotateData]

    /// Seals every sealed column of family under the first data key: guardian PIN hashes and reset addresses,
    /// gallery photos' bytes (under `KINDRED_FAMILY_PHOTO_ROOT`), baby names, expected birth dates and arrival
    /// birth records, unsent mail, notices' texts, activity details, comments, calendar and registry texts and links,
    /// people's names, invitations' addresses, event and activity-feed payloads. Safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "family") { environment, cipher in
        let photos = FilesystemPhotoStore(
            root: try FamilySettings.photoRoot(in: ProcessInfo.processInfo.environment))
        return GuardianPinSecrets(cipher: cipher).rotations(on: environment.database)
            + [
                PhotoObjectRotation(
                    database: environment.database, photos: SealedPhotoStore(sealing: photos, with: cipher))
            ] + BabySealRotation.all(database: environment.database, cipher: cipher)
            + [SealedMailOutbox(MailOutbox(schema: "family", cipher: cipher), on: environment.database)]
            + NoticeText.rotations(cipher: cipher, on: environment.database)
            + [
                ActivityDetails.rotation(cipher: cipher, on: environment.database),
                CommentTexts.rotation(cipher: cipher, on: environment.database),
                SealedEventOutbox(FamilyEvents.outbox, cipher: cipher, on: environment.database),
                SealedEventOutbox(BabyActivityFeed.outbox, cipher: cipher, on: environment.database),
            ] + CalendarTexts.rotations(cipher: cipher, on: environment.database)
            + RegistryTexts.rotations(cipher: cipher, on: environment.database)
            + ProfileNames.rotations(cipher: cipher, on: environment.database)
            + InvitationEmails(cipher: cipher).rotations(on: environment.database)
    }
}
