import LoadTestKit
import Synchronization

/// When each user's stream of one kind opened (nil while it is not open), so a sender knows whether its
/// message must reach the recipient: a stream opened without a cursor carries only what the server receives
/// after it started serving it, which the client cannot see, so a stream counts once open for
/// `Deliveries.settle`.
final class StreamBoard: Sendable {
    private let openedAt: Mutex<[ContinuousClock.Instant?]>

    init(users: Int) {
        openedAt = Mutex(Array(repeating: nil, count: users))
    }

    func opened(_ user: Int) { openedAt.withLock { $0[user] = .now } }

    func closed(_ user: Int) { openedAt.withLock { $0[user] = nil } }

    /// False for a user outside the run (a friend among the seeded users the run did not start).
    func isSettled(_ user: Int) -> Bool {
        openedAt.withLock { $0.indices.contains(user) ? $0[user] : nil }.map {
            .now - $0 >= Deliveries.settle
        } ?? false
    }
}
