import KindredHandlers

/// The pairs social recently said are friends, kept `lifetime` and at most `capacity` pairs: a burst of checks
/// of the same pair (a challenge's participants) asks social once. Only "friends" is kept: a friendship ended a
/// moment ago may still count that long, which the product accepts, but two people who have just become friends
/// are never refused because of an old "no".
final class FriendshipCache: Sendable {
    private let answers: RecentAnswers<String, Void>

    init(lifetime: Duration = .seconds(30), capacity: Int = 10_000) {
        answers = RecentAnswers(lifetime: lifetime, capacity: capacity)
    }

    /// Whether social said the pair (in either order) are friends less than `lifetime` ago.
    func knownFriends(_ user: UserID, _ other: UserID) -> Bool {
        answers.answer(for: Self.key(user, other)) != nil
    }

    /// Remembers that the pair are friends.
    func rememberFriends(_ user: UserID, _ other: UserID) {
        answers.remember((), for: Self.key(user, other))
    }

    private static func key(_ user: UserID, _ other: UserID) -> String {
        user < other ? "\(user) \(other)" : "\(other) \(user)"
    }
}
