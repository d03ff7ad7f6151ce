public import KindredRPC

extension RPCServer {
    /// Starts `run()` in a task on one of the shared event loops and returns the task (it ends after the drain).
    /// Not `Task { try await server.run() }`: that task waits for a cooperative-pool thread before the server
    /// serves anything, and under the full suite other tests hold those few threads with blocking work, so
    /// it started 10 s late and a test's first call ran out of its deadline. A service's own `run()` needs no
    /// such care: it runs in the task already running, which starts the loops before it suspends.
    public func runOnALoop() -> Task<Void, any Error> {
        Task(executorPreference: EventLoop.background) { [self] in try await run() }
    }
}
