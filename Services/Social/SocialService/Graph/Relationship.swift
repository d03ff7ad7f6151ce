/// How two users stand with each other, seen from one of them ("me"): what every part asks, in one statement
/// (`RelationshipStore.between`), before two people interact.
struct Relationship: Sendable, Equatable {
    /// I blocked them.
    var blocks = false
    /// They blocked me.
    var blockedBy = false
    /// I follow them.
    var follows = false
    /// They follow me.
    var followedBy = false
    var friends = false

    /// Refuses any interaction across a block: USER_BLOCKED to the blocker (their app offers to unblock),
    /// USER_NOT_FOUND to the one blocked, who cannot tell a block from a missing user.
    func requireNoBlock() throws {
        if blocks { throw SocialError.userBlocked }
        if blockedBy { throw SocialError.userNotFound }
    }

    /// Either blocked the other.
    var blocked: Bool { blocks || blockedBy }
}
