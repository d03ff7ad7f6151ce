import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// What every part of the family service is built from: its database, its clock, its mail, identity, the
/// Argon2id hasher of guardian PINs, its logger, its data keys, and where gallery photos' bytes live.
struct FamilyContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let identity: IdentityDirectory
    let pinHasher: PasswordHasher
    let logger: Logger
    /// Family's data keys: the sensitive columns and photo bytes are sealed under them (`FieldCipher`).
    let cipher: FieldCipher
    /// The gallery's object store: the filesystem under `var/photos` unless configured otherwise.
    var photos: any PhotoObjectStore = FilesystemPhotoStore()
}
