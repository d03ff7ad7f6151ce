import Foundation
import Synchronization
import Testing

@testable import KindredEvents

@Suite struct EventReadAheadTests {
    /// A drain cancels a consumer waiting for events while its stream ends: the cancellation (on one thread,
    /// holding the consumer task's status lock) and the end (on another, waking that task) must not wait for
    /// each other. They did when the buffer resumed its waiters under its own lock, which hung a draining
    /// service for good. Each round races the two on threads of their own, started together.
    @Test func aConsumerCancelledAsItsStreamEndsNeverDeadlocks() async throws {
        for round in 0..<3_000 {
            let buffer = EventReadAhead<Int>(capacity: 4)
            let consumer = Task { try await buffer.take(upTo: 10) }
            try await Task.sleep(for: .microseconds(20))  // time to park as the buffer's taker
            let ready = Atomic(0)
            let done = DispatchSemaphore(value: 0)
            for act in [{ consumer.cancel() }, { buffer.finish(.success(())) }] as [@Sendable () -> Void] {
                Thread.detachNewThread {
                    ready.add(1, ordering: .relaxed)
                    while ready.load(ordering: .relaxed) < 2 {}
                    act()
                    done.signal()
                }
            }
            guard (0..<2).allSatisfy({ _ in done.wait(timeout: .now() + 10) == .success }) else {
                Issue.record("round \(round): cancelling the consumer and ending its stream deadlocked")
                return
            }
            _ = try? await consumer.value
        }
    }
}
