import KindredTestSupport
import Testing

@testable import KindredEvents

@Suite struct EventReadAheadTests {
    /// A drain cancels a consumer waiting for events while its stream ends: the cancellation (on one thread,
    /// holding the consumer task's status lock) and the end (on another, waking that task) must not wait for
    /// each other. They did when the buffer resumed its waiters under its own lock, which hung a draining
    /// service for good. Each round races the two on threads of their own, started together.
    @Test func aConsumerCancelledAsItsStreamEndsNeverDeadlocks() async throws {
        for round in raceRounds() {
            let buffer = EventReadAhead<Int>(capacity: 4)
            let consumer = Task { try await buffer.take(upTo: 10) }
            try await Task.sleep(for: .microseconds(20))  // time to park as the buffer's taker
            guard try await bothReturn({ consumer.cancel() }, { buffer.finish(.success(())) }) else {
                Issue.record("round \(round): cancelling the consumer and ending its stream deadlocked")
                return
            }
            _ = try? await consumer.value
        }
    }
}
