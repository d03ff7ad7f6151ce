import Foundation
import Synchronization

/// What a stream sends, collected as it arrives, for a test to wait on: `first(_:)` wakes when the element it
/// waits for arrives, not on a poll.
public final class StreamCollector<Element: Sendable>: Sendable {
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var received: [Element] = []
        var waiters: [UUID: Waiter] = [:]
        /// Waits whose time ran out before they were registered.
        var expired: Set<UUID> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Records `element` and wakes every wait it completes.
    public func add(_ element: Element) {
        let ready = state.withLock { state in
            state.received.append(element)
            let ready = state.waiters.filter { $0.value.count <= state.received.count }
            for key in ready.keys { state.waiters[key] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Everything received so far, in order.
    public var received: [Element] { state.withLock { $0.received } }

    /// The first `count` elements, once they arrived; fails after `timeout` (a bound on failure, not a wait
    /// for things to settle: a passing test wakes on the element).
    public func first(_ count: Int, within timeout: Duration = .seconds(10)) async throws -> [Element] {
        let key = UUID()
        let arrived = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.arrival(of: count, key: key) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                let waiter = self.state.withLock { state in
                    state.expired.insert(key)
                    return state.waiters.removeValue(forKey: key)
                }
                waiter?.continuation.resume(returning: false)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let received = self.received
        guard arrived || received.count >= count else {
            throw TestFailure("the stream sent \(received.count), not \(count), within \(timeout)")
        }
        return Array(received.prefix(count))
    }

    /// True once `count` elements arrived; false if the wait `key` expired first.
    private func arrival(of count: Int, key: UUID) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if state.received.count >= count { return true }
                if state.expired.contains(key) { return false }
                state.waiters[key] = Waiter(count: count, continuation: continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
