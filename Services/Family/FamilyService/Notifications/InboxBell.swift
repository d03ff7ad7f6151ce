import KindredPostgres
import Logging
import Synchronization

/// Wakes this process's `WatchNotifications` streams when a notification for their user commits, in any
/// instance: one LISTEN connection on `NotificationInbox.channel` serves every stream of the process (it
/// opens with the first stream), and a notification rings only its recipient's streams. After the listener
/// (re)connects it rings every stream, since what was posted while it was down was not announced.
final class InboxBell: Sendable {
    /// One stream's place at the bell.
    struct Subscription: Sendable {
        fileprivate let id: UInt64
        fileprivate let recipient: String
    }

    private struct Waiter {
        let recipient: String
        /// Rung while the stream was not waiting: its next wait returns at once.
        var rang = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private struct State {
        var listener: PostgresListener?
        var follower: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
        var byRecipient: [String: Set<UInt64>] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
    }

    private let configuration: PostgresConfiguration
    private let logger: Logger
    private let state = Mutex(State())

    /// A bell listening on `configuration`'s database once the first stream subscribes.
    init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Rings for `recipient`'s notifications from now on; nil once the bell is closed (the drain).
    func subscribe(_ recipient: String) throws -> Subscription? {
        try state.withLock { state in
            guard !state.isClosed else { return nil }
            if state.listener == nil {
                let listener = try PostgresListener(
                    configuration: configuration, channels: [NotificationInbox.channel], logger: logger)
                state.listener = listener
                state.follower = Task { [self] in await follow(listener) }
            }
            state.nextID += 1
            state.waiters[state.nextID] = Waiter(recipient: recipient)
            state.byRecipient[recipient, default: []].insert(state.nextID)
            return Subscription(id: state.nextID, recipient: recipient)
        }
    }

    /// Forgets a stream that ended.
    func unsubscribe(_ subscription: Subscription) {
        let waiter = state.withLock { state in
            state.byRecipient[subscription.recipient]?.remove(subscription.id)
            if state.byRecipient[subscription.recipient]?.isEmpty == true {
                state.byRecipient.removeValue(forKey: subscription.recipient)
            }
            return state.waiters.removeValue(forKey: subscription.id)
        }
        waiter?.continuation?.resume()
    }

    /// Returns true once the bell rang for the stream since its last wait, false once the bell is closed;
    /// throws `CancellationError` when the waiting task is cancelled (the client left).
    func wait(_ subscription: Subscription) async throws -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    guard !state.isClosed, var waiter = state.waiters[subscription.id] else { return true }
                    // Checked under the lock: a cancellation handler that already ran found nothing to resume.
                    if waiter.rang || Task.isCancelled {
                        waiter.rang = false
                        state.waiters[subscription.id] = waiter
                        return true
                    }
                    waiter.continuation = continuation
                    state.waiters[subscription.id] = waiter
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                defer { state.waiters[subscription.id]?.continuation = nil }
                return state.waiters[subscription.id]?.continuation
            }
            continuation?.resume()
        }
        try Task.checkCancellation()
        return !state.withLock { $0.isClosed }
    }

    /// Ends every stream's wait and stops listening; later subscriptions are refused.
    func close() async {
        let (listener, follower, waiting) = state.withLock { state in
            state.isClosed = true
            let waiting = state.waiters.values.compactMap(\.continuation)
            for id in state.waiters.keys { state.waiters[id]?.continuation = nil }
            defer {
                state.listener = nil
                state.follower = nil
            }
            return (state.listener, state.follower, waiting)
        }
        waiting.forEach { $0.resume() }
        await listener?.close()
        await follower?.value
    }

    /// Rings for each notification the listener hears, and for everyone when it (re)connects.
    private func follow(_ listener: PostgresListener) async {
        for await notification in listener.notifications {
            switch notification {
            case .notification(_, let recipient): ring { $0.byRecipient[recipient] ?? [] }
            case .listening: ring { Set($0.waiters.keys) }
            }
        }
    }

    /// Resumes the chosen streams that wait, and marks the others rung.
    private func ring(_ chosen: (State) -> Set<UInt64>) {
        let waking = state.withLock { state in
            var waking: [CheckedContinuation<Void, Never>] = []
            for id in chosen(state) {
                guard var waiter = state.waiters[id] else { continue }
                if let continuation = waiter.continuation {
                    waking.append(continuation)
                    waiter.continuation = nil
                } else {
                    waiter.rang = true
                }
                state.waiters[id] = waiter
            }
            return waking
        }
        waking.forEach { $0.resume() }
    }
}
