import KindredHandlers

/// Friendships as gamification needs them; social owns them and answers for them (`AreFriends`).
protocol FriendGraph: Sendable {
    /// Whether `user` and `other` are confirmed friends.
    func areFriends(_ user: UserID, _ other: UserID) async throws -> Bool
}
