import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// What every part of the social service is built from: its database, its clock, the people it has met
/// (identity), family's parental controls and approvals, the sealing of message bodies, and its logger.
struct SocialContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let people: PeopleDirectory
    let family: FamilyGate
    /// Seals message bodies at rest.
    let messageBodies: MessageBodies
    let logger: Logger

    /// Social's data keys: message bodies and event payloads are sealed under them.
    var cipher: FieldCipher { messageBodies.cipher }
}
