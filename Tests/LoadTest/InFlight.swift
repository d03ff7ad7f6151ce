import Synchronization

/// The open loop's calls in flight, each an unstructured task counted here. Not a task group: a group's child
/// that ends is unlinked by a walk over every child still running (`swift::TaskGroup::removeChildTask`), so
/// with a thousand calls in flight that walk was 11% of the tool's CPU at 1,000 calls/s (perf, issue 27).
/// Each call ends within its deadline, so nothing needs cancelling; whatever still runs when the run's hard
/// stop comes is counted (`running`) and left behind.
final class InFlight: Sendable {
    private struct State {
        var running = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Starts `call` as a task of its own, on `executor` (the loop of the user who calls; nil: the pool).
    func start(on executor: (any TaskExecutor)?, _ call: @escaping @Sendable () async -> Void) {
        state.withLock { $0.running += 1 }
        Task(executorPreference: executor) {
            await call()
            self.ended()
        }
    }

    /// The calls started and not ended yet.
    var running: Int { state.withLock { $0.running } }

    /// Returns once every call started has ended, or when the waiting task is cancelled (the hard stop). One
    /// waiter at a time: the run's, once every open loop has sent its calls.
    func drained() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let idle = state.withLock { state in
                    guard state.running > 0, !Task.isCancelled else { return true }
                    state.waiter = waiter
                    return false
                }
                if idle { waiter.resume() }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    private func ended() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            guard state.running == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }
}
