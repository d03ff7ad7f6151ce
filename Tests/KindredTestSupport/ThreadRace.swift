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
            while released.load(ordering: .relaxed) < 2 {}
            act()
            returned.signal()
        }
    }
    return try await onItsOwnThread {
        (0..<2).allSatisfy { _ in returned.wait(timeout: .now() + wait) == .success }
    }
}
