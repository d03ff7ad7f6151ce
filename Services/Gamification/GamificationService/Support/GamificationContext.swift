import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// What every part of the gamification service is built from: its database, its clock, social's friendships,
/// family's baby-profile memberships and guardian links, the cipher of usage sessions, and its logger.
struct GamificationContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let friends: any FriendGraph
    /// Family's baby-profile memberships, for the baby-profile games.
    let babyMembers: any BabyMemberships
    /// Family's guardian links, for learning points and reward apps.
    let guardians: any GuardianDirectory
    /// Usage sessions sealed under gamification's data keys.
    let usageSessions: UsageSessions
    let logger: Logger

    /// Gamification's data keys: usage sessions, revealed games and event payloads are sealed under them.
    var cipher: FieldCipher { usageSessions.cipher }
}
