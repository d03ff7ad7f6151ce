import KindredRPC
import Logging
import Synchronization

/// Work a service runs beside its RPCs — delivery workers, sweeps, event feeds — tied to the process's
/// lifetime: started when the service registers it, told to stop when the drain begins, and waited for
/// before the database pool closes, so nothing is cut off inside a statement.
public final class BackgroundWork: Sendable {
    private struct State {
        var tasks: [(name: String, task: Task<Void, Never>)] = []
        var drainHooks: [@Sendable () async -> Void] = []
        var draining = false
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Runs `work` from now on; it is cancelled when the drain begins and must return soon after.
    /// Once the drain has begun, `work` is not started at all. It runs on the background event loop
    /// (`EventLoop.background`): on the cooperative pool each statement and each event read cost thread hops
    /// (perf: 13–25 context switches a call in the services, the consumers' share among them). Work that
    /// blocks (SMTP, hashing) must keep to its own threads, as it does.
    public func start(_ name: String, _ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.draining else { return }
            state.tasks.append((name, Task(executorPreference: EventLoop.background) { await work() }))
        }
    }

    /// Runs `body` when the drain begins: for what stops by a call rather than by cancellation, such as
    /// closing an event feed so that its streams end and the drain does not wait for them.
    public func onDrain(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { $0.drainHooks.append(body) }
    }

    /// Cancels the work and runs the drain hooks, once.
    func beginDrain() async {
        let (tasks, hooks) = state.withLock { state -> ([Task<Void, Never>], [@Sendable () async -> Void]) in
            guard !state.draining else { return ([], []) }
            state.draining = true
            return (state.tasks.map(\.task), state.drainHooks)
        }
        tasks.forEach { $0.cancel() }
        for hook in hooks { await hook() }
    }

    /// Begins the drain if it has not begun, then waits until every piece of work has returned.
    func stopAndWait() async {
        await beginDrain()
        for (name, task) in state.withLock({ $0.tasks }) {
            await task.value
            logger.debug("background work stopped", metadata: ["work": "\(name)"])
        }
    }
}
