import FoundationEssentials
import KindredHandlers
import KindredPostgres
import KindredRPC

/// The graph: friend requests and friendships, follows, blocks and user search, each a part of its own. Every
/// rule takes the caller explicitly (a user's id, or the `Caller` where services may ask too), so it reads as
/// the rule and is tested without a server; the handlers in `SocialAPI+Graph.swift` only translate. The SQL
/// is in `Storage/` (`FriendshipStore`, `FollowStore`, `BlockStore`, `GraphStore`, `UserSearchStore`).
struct SocialGraph: Sendable {
    let friendships: Friendships
    let follows: Follows
    let blocks: Blocks
    let search: UserSearch

    init(context: SocialContext) {
        friendships = Friendships(context: context)
        follows = Follows(context: context)
        blocks = Blocks(context: context)
        search = UserSearch(context: context)
    }
}

extension SocialContext {
    /// The other user of something `me` does to them: SELF_NOT_ALLOWED when it is `me`, USER_NOT_FOUND when
    /// identity has no such user.
    func counterpart(_ otherID: UserID, of me: UserID) async throws -> Person {
        guard otherID != me else { throw SocialError.notYourself }
        return try await people.person(otherID)
    }

    /// Runs `body` in one transaction holding the lock of the pair `a`, `b` (`GraphStore.lockPair`): how every
    /// change that adds an edge between two users is made.
    func changingPair<Value: Sendable>(
        _ a: UserID, _ b: UserID, _ body: (PostgresTransaction) async throws -> Value
    ) async throws -> Value {
        try await database.transaction { tx in
            try await GraphStore.lockPair(a, b, in: tx)
            return try await body(tx)
        }
    }
}
