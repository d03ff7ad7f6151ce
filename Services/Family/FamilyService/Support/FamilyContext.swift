import KindredPostgres
import KindredRuntime
import Logging

/// What every part of the family service is built from: its database, its clock, its mail, identity, and
/// its logger.
struct FamilyContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let identity: IdentityDirectory
    let logger: Logger
}
