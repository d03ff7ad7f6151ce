import KindredHandlers
import KindredRPC

/// Friendships as gamification needs them; social owns them and answers for them.
protocol FriendGraph: Sendable {
    /// Whether `user` and `other` are confirmed friends now: a write that depends on it must get social's
    /// current answer, never a remembered one (a friendship just ended ends at once).
    func areFriends(_ user: UserID, _ other: UserID) async throws -> Bool

    /// The confirmed friends of the caller whose request metadata (their token) is `requestMetadata`.
    func friends(forwarding requestMetadata: Metadata) async throws -> [Friend]
}

/// A confirmed friend, as a leaderboard names them.
struct Friend: Sendable, Equatable {
    let id: UserID
    let username: String
}
