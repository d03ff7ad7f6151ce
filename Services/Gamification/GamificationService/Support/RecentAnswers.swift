import Synchronization

/// Answers a peer service gave a moment ago, each kept `lifetime` and at most `capacity` of them: a burst of the
/// same question (a profile's voters) asks the peer once. The parts decide which answers are safe to keep
/// (FamilyBabyMemberships; never an answer a write depends on, as challenge invitations' friendships).
final class RecentAnswers<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
    private let lifetime: Duration
    private let capacity: Int
    /// Each answer with its expiry.
    private let entries = Mutex<[Key: (answer: Answer, expires: ContinuousClock.Instant)]>([:])

    init(lifetime: Duration, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The answer kept for `key`, if it is less than `lifetime` old.
    func answer(for key: Key) -> Answer? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.answer
        }
    }

    /// Keeps `answer` for `key`. At capacity, the expired entries go first, and if none had, all of them: a
    /// cheap bound that costs one burst of questions to the peer, never unbounded memory.
    func remember(_ answer: Answer, for key: Key) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = (answer, now + lifetime)
        }
    }
}
