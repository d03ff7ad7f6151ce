import FoundationEssentials
import KindredHandlers
import Synchronization

/// Social's recent answers to "are these two friends?", kept `lifetime` and at most `capacity` pairs: a
/// friendship ended a moment ago may still count that long, which the product accepts for a leaderboard or an
/// invitation, and a burst of checks of the same pair (a challenge's participants) asks social once.
final class FriendshipCache: Sendable {
    private struct Entry {
        let friends: Bool
        let expires: ContinuousClock.Instant
    }

    private let lifetime: Duration
    private let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: Duration = .seconds(30), capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The answer remembered for the pair, in either order; nil when there is none or it expired.
    func answer(_ user: UserID, _ other: UserID) -> Bool? {
        let key = Self.key(user, other)
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.friends
        }
    }

    /// Remembers `friends` for the pair. At capacity, the expired entries go first, and if none had, all of
    /// them: a cheap bound that costs one burst of questions to social, never unbounded memory.
    func remember(_ friends: Bool, _ user: UserID, _ other: UserID) {
        let now = ContinuousClock.now
        let entry = Entry(friends: friends, expires: now + lifetime)
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[Self.key(user, other)] = entry
        }
    }

    private static func key(_ user: UserID, _ other: UserID) -> String {
        user < other ? "\(user) \(other)" : "\(other) \(user)"
    }
}
