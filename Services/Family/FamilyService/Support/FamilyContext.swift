import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// What every part of the family service is built from: its database, its clock, its mail, identity, the
/// Argon2id hasher of guardian PINs, and its logger.
struct FamilyContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let identity: IdentityDirectory
    let pinHasher: PasswordHasher
    let logger: Logger
}
