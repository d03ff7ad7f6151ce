import Synchronization

/// Waits until `condition` holds and returns as soon as it does; throws a `TestFailure` naming `what` once
/// `timeout` passed. The timeout bounds a failure, it is never a pause a passing test sits out: a loaded
/// machine only makes the wait longer. For what no event announces (a row a consumer writes, a backend
/// PostgreSQL lists); a stream's elements are waited on with `StreamCollector` instead.
///
/// Only an answer to a look begun after the deadline fails the wait: under the full suite a task can stall
/// for seconds between a look and its answer (its thread held by other tests' work), and an answer that was
/// already stale when the deadline passed says nothing about now.
public func eventually(
    _ what: @autoclosure () -> String = "the condition", within timeout: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        let lookedAt = ContinuousClock.now
        if try await condition() { return }
        guard lookedAt < deadline else { throw TestFailure("never within \(timeout): \(what())") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Checks that `condition` keeps holding for `window`; throws a `TestFailure` naming `what` the moment it
/// does not. The one wall-clock wait the tests keep: proving that something does *not* happen (a duplicate
/// that never arrives) has no event to wait on. A slow machine can only make it miss a fault, never report
/// one that is not there; tests use it only after waiting for everything that should happen.
public func consistently(
    _ what: @autoclosure () -> String, for window: Duration = .milliseconds(300),
    _ condition: () async throws -> Bool
) async throws {
    let end = ContinuousClock.now + window
    repeat {
        guard try await condition() else { throw TestFailure("no longer holds: \(what())") }
        try await Task.sleep(for: .milliseconds(10))
    } while ContinuousClock.now < end
    guard try await condition() else { throw TestFailure("no longer holds: \(what())") }
}

/// Suspends until the task is cancelled, then throws `CancellationError`: the stand-in for work that only
/// its cancellation ends (a handler that never answers, a process killed mid-transaction), in place of a
/// sleep long enough to outlast the test.
public func untilCancelled() async throws {
    let waiting = Mutex<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let cancelled = waiting.withLock { state in
                if !state.cancelled { state.continuation = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume() }
        }
    } onCancel: {
        waiting.withLock { state in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }?.resume()
    }
    throw CancellationError()
}
