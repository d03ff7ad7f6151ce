public import Logging
internal import Synchronization

/// PostgreSQL connections: one per event loop for statements made on that loop (see `PostgresPool+Loops`),
/// and a fixed set owned by dedicated threads that take queued statements and send them as one pipeline.
/// Calls fail fast while PostgreSQL is unreachable; connections come back by themselves. Call `close()`
/// when done: the threads keep the pool alive until then.
public final class PostgresPool: Sendable {
    /// Where and how the pool connects; a listener (`PostgresListener`) beside the pool takes the same.
    public let configuration: PostgresConfiguration
    let logger: Logger
    let state: Mutex<PoolState>
    let workers: [PostgresWorker]
    let jobIDs = Atomic<UInt64>(0)
    /// The event loop the calling thread runs, if any: statements from there use that loop's connection.
    let currentLoop: @Sendable () -> (any PostgresIOLoop)?
    /// A loop for work the pool's owner runs beside its calls (see `backgroundExecutor`).
    let backgroundLoop: @Sendable () -> (any TaskExecutor)?
    let loopConnections = Mutex<[LoopLaneKey: PostgresLoopConnection]>([:])
    let loopTransactionSets = Mutex<[ObjectIdentifier: PostgresLoopTransactions]>([:])
    /// Per channel, what announces committed rows to the streams of every instance (`RecipientAnnouncer`).
    let announcers = Mutex<[String: RecipientAnnouncer]>([:])
    let loopsClosed = Atomic<Bool>(false)
    /// At most this many queued statements go into one pipeline.
    static let maxBatch = 64

    /// Starts the connection threads; they connect in the background. Until the first attempts finish,
    /// calls wait for them; after that, an unreachable server fails calls at once. `currentLoop` names the
    /// event loop running the calling thread (KindredRuntime passes its RPC loops'): calls made there get a
    /// connection of that loop's own, driven by the loop without blocking. `backgroundLoop` picks a loop for
    /// the work that runs beside the calls (`backgroundExecutor`).
    public init(
        configuration: PostgresConfiguration, logger: Logger,
        currentLoop: @escaping @Sendable () -> (any PostgresIOLoop)? = { nil },
        backgroundLoop: @escaping @Sendable () -> (any TaskExecutor)? = { nil }
    ) {
        self.configuration = configuration
        self.currentLoop = currentLoop
        self.backgroundLoop = backgroundLoop
        self.logger = logger
        self.state = Mutex(PoolState(poolSize: configuration.poolSize))
        self.workers = (0..<configuration.poolSize).map { PostgresWorker(index: $0) }
        for worker in workers {
            PostgresWorker.startThread(name: "pg-connection") { [self] in self.runWorker(worker) }
        }
        registerMetrics()
    }

    /// Runs one statement on any connection, in its own implicit transaction.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        var staleConnections = 0
        while true {
            do {
                return try await submit(query)
            } catch let error as PostgresError
                where error.isStalePreparedStatement && staleConnections < configuration.poolSize
            {
                // The server refused before executing anything, and that connection dropped its stale
                // statement; each connection can fail this way once after a migration.
                staleConnections += 1
            }
        }
    }

    /// Queues `query`. A caller cancelled before its statement is sent (a passed deadline) leaves the queue at
    /// once; once sent, the statement finishes and its answer is dropped.
    private func submit(_ query: PostgresQuery) async throws -> PostgresRows {
        if Task.isCancelled { throw PostgresError.cancelled }
        if let connection = loopConnection(for: query) {
            // Unchecked: the loop connection resumes every statement exactly once (at its segment's sync,
            // after a retry, or when the connection breaks), and the checked wrapper costs an allocation.
            return try await withUnsafeThrowingContinuation { connection.send(query, $0) }
        }
        let id = jobIDs.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enqueue(.query(query, continuation, id: id))
            }
        } onCancel: {
            let job: PostgresJob? = state.withLock { state in
                let index = state.shared.firstIndex {
                    if case .query(_, _, let queued) = $0 { queued == id } else { false }
                }
                return index.map { state.shared.remove(at: $0) }
            }
            job?.fail(.cancelled)
        }
    }

    /// True while at least one connection is up.
    public var isReachable: Bool { state.withLock { $0.reachability == .reachable } }

    /// Why the last connection attempt failed (libpq's words: for logs and startup errors).
    public var lastConnectionError: PostgresError? { state.withLock { $0.lastConnectionError } }

    /// Reachability now, then every change, until the stream is dropped or the pool closes.
    public func reachabilityChanges() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            continuation.yield(state.reachability == .reachable)
            guard !state.isClosed else { return nil }
            let id = state.nextObserverID
            state.nextObserverID += 1
            state.observers[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Fails queued calls, disconnects and stops the threads; returns when they have exited.
    public func close() async {
        closeLoopConnections()
        let (jobs, observers, workers): ([PostgresJob], [AsyncStream<Bool>.Continuation], [PostgresWorker]) =
            state.withLock { state in
                state.isClosed = true
                let jobs = Array(state.shared) + state.slots.flatMap(\.privateJobs)
                state.shared.removeAll()
                for index in state.slots.indices { state.slots[index].privateJobs.removeAll() }
                defer { state.observers.removeAll() }
                return (jobs, Array(state.observers.values), self.workers)
            }
        jobs.forEach { $0.fail(.closed) }
        observers.forEach { $0.finish() }
        workers.forEach { $0.wake() }
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.runningWorkers == 0 { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    func enqueue(_ job: PostgresJob) {
        let outcome: Result<Int?, PostgresError> = state.withLock { state in
            if state.isClosed { return .failure(.closed) }
            if state.reachability == .unreachable { return .failure(state.unavailableError) }
            state.shared.append(job)
            let idle = state.claimIdleWorker()
            state.countQueued(waited: idle == nil)
            return .success(idle)
        }
        switch outcome {
        case .failure(let error): job.fail(error)
        case .success(let index): if let index { workers[index].wake() }
        }
    }
}
