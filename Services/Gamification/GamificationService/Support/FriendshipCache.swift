import FoundationEssentials
import KindredHandlers
import Synchronization

/// The pairs social recently said are friends, kept `lifetime` and at most `capacity` pairs: a burst of checks
/// of the same pair (a challenge's participants) asks social once. Only "friends" is kept: a friendship ended a
/// moment ago may still count that long, which the product accepts, but two people who have just become friends
/// are never refused because of an old "no".
final class FriendshipCache: Sendable {
    private let lifetime: Duration
    private let capacity: Int
    /// Each pair's expiry.
    private let entries = Mutex<[String: ContinuousClock.Instant]>([:])

    init(lifetime: Duration = .seconds(30), capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Whether social said the pair (in either order) are friends less than `lifetime` ago.
    func knownFriends(_ user: UserID, _ other: UserID) -> Bool {
        let key = Self.key(user, other)
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let expires = entries[key] else { return false }
            guard expires > now else {
                entries[key] = nil
                return false
            }
            return true
        }
    }

    /// Remembers that the pair are friends. At capacity, the expired entries go first, and if none had, all
    /// of them: a cheap bound that costs one burst of questions to social, never unbounded memory.
    func rememberFriends(_ user: UserID, _ other: UserID) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[Self.key(user, other)] = now + lifetime
        }
    }

    private static func key(_ user: UserID, _ other: UserID) -> String {
        user < other ? "\(user) \(other)" : "\(other) \(user)"
    }
}
