import KindredHandlers
import KindredPostgres
import Logging

/// What every part of the gamification service is built from: its database, its clock, social's friendships,
/// family's baby-profile memberships, and its logger.
struct GamificationContext: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let friends: any FriendGraph
    let babyMembers: any BabyMemberships
    let logger: Logger
}
