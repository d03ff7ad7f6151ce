internal import KindredThreads

/// The loop each connection thread runs: connect (with backoff), take work, run it, wait.
extension PostgresPool {
    func runWorker(_ worker: PostgresWorker) {
        var connection: PostgresConnection?
        var backoff = Backoff.reconnect
        while true {
            if let current = connection, current.isBroken {
                connectionLost(worker.index, PostgresError.connectionLost(current.errorMessage))
                connection = nil
            }
            guard let live = connection ?? connect(worker, backoff: &backoff) else {
                if state.withLock({ $0.isClosed }) { break }
                continue
            }
            connection = live
            switch state.withLock({ $0.nextWork(for: worker.index, maxBatch: Self.maxBatch) }) {
            case .exit:
                connection = nil
                workerExited()
                return
            case .wait:
                if worker.wait(socket: live.socket, timeout: nil), !live.consumeInput() { continue }
            case .lease(let job, let id):
                guard case .lease(let continuation) = job else { continue }
                continuation.resume(returning: PostgresLease(pool: self, worker: worker.index, id: id))
            case .jobs(let jobs):
                run(jobs, on: live)
            }
        }
        workerExited()
    }

    /// One connection attempt; on failure, waits out the backoff (or until woken by `close()`).
    private func connect(_ worker: PostgresWorker, backoff: inout Backoff) -> PostgresConnection? {
        if state.withLock({ $0.isClosed }) { return nil }
        do {
            let connection = try PostgresConnection(configuration: configuration)
            backoff.reset()
            connectionUp(worker.index)
            return connection
        } catch {
            connectFailed(worker.index, error)
            _ = worker.wait(socket: nil, timeout: backoff.next())
            return nil
        }
    }

    /// Runs jobs in order; consecutive queries go out as one pipeline.
    private func run(_ jobs: [PostgresJob], on connection: PostgresConnection) {
        var index = jobs.startIndex
        while index < jobs.endIndex {
            if case .script(let sql, let continuation) = jobs[index] {
                do {
                    try connection.runScript(sql)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
                index += 1
                continue
            }
            if case .lease = jobs[index] {
                jobs[index].fail(.connectionLost("a lease cannot run on a leased connection"))
                index += 1
                continue
            }
            var batch: [(PostgresQuery, CheckedContinuation<PostgresRows, any Error>)] = []
            while index < jobs.endIndex, case .query(let query, let continuation, _) = jobs[index] {
                batch.append((query, continuation))
                index += 1
            }
            for (result, (_, continuation)) in zip(connection.execute(batch.map(\.0)), batch) {
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    private func workerExited() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.runningWorkers -= 1
            guard state.runningWorkers == 0 else { return [] }
            defer { state.closeWaiters.removeAll() }
            return state.closeWaiters
        }
        waiters.forEach { $0.resume() }
    }
}

extension Backoff {
    /// Between reconnection attempts to PostgreSQL: 50 ms doubling to 2 s, jittered.
    static var reconnect: Backoff { Backoff(initial: .milliseconds(50), ceiling: .seconds(2)) }
}
