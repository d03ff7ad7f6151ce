internal import DequeModule

/// Work handed from callers to connection threads.
enum PostgresJob: Sendable {
    /// `id` lets a cancelled caller take its statement back out of the shared queue (0: not cancellable).
    case query(PostgresQuery, CheckedContinuation<PostgresRows, any Error>, id: UInt64)
    /// A multi-statement script (migrations), only on a leased connection.
    case script(String, CheckedContinuation<Void, any Error>)
    /// A transaction asking for a connection of its own.
    case lease(CheckedContinuation<PostgresLease, any Error>)

    func fail(_ error: PostgresError) {
        switch self {
        case .query(_, let continuation, _): continuation.resume(throwing: error)
        case .script(_, let continuation): continuation.resume(throwing: error)
        case .lease(let continuation): continuation.resume(throwing: error)
        }
    }
}

/// Everything the pool's lock guards: the shared queue, each connection thread's slot, reachability.
struct PoolState {
    enum Reachability: Equatable { case unknown, reachable, unreachable }

    struct Slot {
        var isUp = false
        var hasTriedToConnect = false
        /// Waiting on its wake-up descriptor; the next enqueue for it must wake it.
        var isIdle = false
        /// The transaction that holds this connection; its jobs go to `privateJobs`.
        var lease: UInt64?
        var privateJobs: [PostgresJob] = []
    }

    var slots: [Slot]
    var shared = Deque<PostgresJob>()
    var reachability = Reachability.unknown
    var lastConnectionError: PostgresError?
    var isClosed = false
    var nextLeaseID: UInt64 = 1
    var observers: [Int: AsyncStream<Bool>.Continuation] = [:]
    var nextObserverID = 0
    var runningWorkers: Int
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Statements queued for the connection threads, and those of them that found no connection idle.
    var queuedTotal = 0
    var waitedTotal = 0

    init(poolSize: Int) {
        slots = Array(repeating: Slot(), count: poolSize)
        runningWorkers = poolSize
    }

    var unavailableError: PostgresError {
        .unavailable(lastConnectionError?.serverDetail)
    }

    /// The worker to wake for shared work: an idle, connected one that no transaction holds.
    mutating func claimIdleWorker() -> Int? {
        guard let index = slots.firstIndex(where: { $0.isIdle && $0.isUp && $0.lease == nil }) else {
            return nil
        }
        slots[index].isIdle = false
        return index
    }

    /// Work for worker `index`: its transaction's jobs, else a batch from the shared queue, else nothing.
    mutating func nextWork(for index: Int, maxBatch: Int) -> PostgresWorkerTask {
        if isClosed { return .exit }
        slots[index].isIdle = false
        if slots[index].lease != nil {
            guard !slots[index].privateJobs.isEmpty else { return idle(index) }
            defer { slots[index].privateJobs.removeAll(keepingCapacity: true) }
            return .jobs(slots[index].privateJobs)
        }
        guard let first = shared.first else { return idle(index) }
        if case .lease = first {
            shared.removeFirst()
            let id = nextLeaseID
            nextLeaseID += 1
            slots[index].lease = id
            return .lease(first, id: id)
        }
        var count = 0
        while count < min(shared.count, maxBatch) {
            if case .lease = shared[count] { break }
            count += 1
        }
        defer { shared.removeFirst(count) }
        return .jobs(Array(shared.prefix(count)))
    }

    private mutating func idle(_ index: Int) -> PostgresWorkerTask {
        slots[index].isIdle = true
        return .wait
    }
}

/// What a connection thread does next.
enum PostgresWorkerTask {
    case jobs([PostgresJob])
    case lease(PostgresJob, id: UInt64)
    case wait
    case exit
}
