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

/// A user id a request names: lower-cased, or a field violation.
enum UserIDField {
    /// `value` lower-cased; recorded in `violations` against `field` when it is empty or no user id.
    static func read(_ value: String, _ field: String, _ violations: inout FieldViolations) -> String {
        if value.isEmpty {
            violations.add(field, "is required")
        } else if !UUIDv7.isWellFormed(value) {
            violations.add(field, "is not a user id")
        }
        return value.lowercased()
    }

    /// `value` lower-cased; INVALID_ARGUMENT naming `field` when it is empty or no user id.
    static func read(_ value: String, _ field: String) throws(RPCError) -> String {
        var violations = FieldViolations()
        let id = read(value, field, &violations)
        try violations.throwIfAny()
        return id
    }
}

extension SocialContext {
    /// The other user of something `me` does to them: SELF_NOT_ALLOWED when it is `me`, USER_NOT_FOUND when
    /// identity has no such user.
    func counterpart(_ otherID: String, of me: String) async throws -> Person {
        guard otherID != me else { throw SocialError.notYourself }
        return try await people.person(otherID)
    }

    /// Runs `body` in one transaction holding the lock of the pair `a`, `b` (`GraphStore.lockPair`): how every
    /// change that adds an edge between two users is made.
    func changingPair<Value: Sendable>(
        _ a: String, _ b: String, _ body: (PostgresTransaction) async throws -> Value
    ) async throws -> Value {
        try await database.transaction { tx in
            try await GraphStore.lockPair(a, b, in: tx)
            return try await body(tx)
        }
    }
}
