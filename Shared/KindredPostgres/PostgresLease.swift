/// One connection held by one transaction: its statements run there, in order, until it is released.
struct PostgresLease: Sendable {
    let pool: PostgresPool
    let worker: Int
    let id: UInt64

    func query(_ query: PostgresQuery) async throws -> PostgresRows {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(.query(query, continuation, id: 0))
        }
    }

    func runScript(_ sql: String) async throws {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(.script(sql, continuation))
        }
    }

    /// Returns the connection to the pool.
    func release() {
        let wake = pool.state.withLock { state in
            guard state.slots[worker].lease == id else { return false }
            state.slots[worker].lease = nil
            let wasIdle = state.slots[worker].isIdle
            state.slots[worker].isIdle = false
            return wasIdle
        }
        if wake { pool.workers[worker].wake() }
    }

    private enum Enqueued { case failed(PostgresError), wake, queued }

    private func enqueue(_ job: PostgresJob) {
        let outcome: Enqueued = pool.state.withLock { state in
            if state.isClosed { return .failed(.closed) }
            guard state.slots[worker].lease == id else {
                return .failed(.connectionLost("the transaction's connection was lost"))
            }
            state.slots[worker].privateJobs.append(job)
            let wasIdle = state.slots[worker].isIdle
            state.slots[worker].isIdle = false
            return wasIdle ? .wake : .queued
        }
        switch outcome {
        case .failed(let error): job.fail(error)
        case .wake: pool.workers[worker].wake()
        case .queued: break
        }
    }
}
