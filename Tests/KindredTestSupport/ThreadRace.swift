import Foundation
import Synchronization

/// Runs `first` and `second` on threads of their own, released together, and says whether both returned within
/// `limit`: for races that a lock-order bug turns into a deadlock (a task's cancellation against a wake-up of
/// that task). The wait is on a thread of its own too, so a deadlock holds none of Swift's cooperative threads.
public func bothReturn(
    _ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void,
    within limit: Duration = .seconds(10)
) async throws -> Bool {
    let wait = DispatchTimeInterval.milliseconds(Int(limit / .milliseconds(1)))
    let released = Atomic(0)
    let returned = DispatchSemaphore(value: 0)
    for act in [first, second] {
        Thread.detachNewThread {
            released.add(1, ordering: .relaxed)
            // Yielding, not spinning hot: on two busy cores the other thread may not have started yet.
            while released.load(ordering: .relaxed) < 2 { sched_yield() }
            act()
            returned.signal()
        }
    }
    return try await onItsOwnThread {
        (0..<2).allSatisfy { _ in returned.wait(timeout: .now() + wait) == .success }
    }
}

/// The rounds of a race test: up to `limit`, fewer once `budget` has passed since the first. Alone a round takes
/// about a millisecond (3,000 in 4 s); beside the whole suite on two busy cores (CI) it took ~25 ms, and 3,000
/// of them ran past `HealthStatusBoardTests`' time limit. The deadlocks these tests look for showed within their
/// first rounds.
public func raceRounds(upTo limit: Int = 3_000, within budget: Duration = .seconds(15)) -> some Sequence<Int>
{
    let clock = ContinuousClock()
    let end = clock.now + budget
    return (0..<limit).lazy.prefix { _ in clock.now < end }
}
