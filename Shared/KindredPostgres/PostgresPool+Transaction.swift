/// Transactions: one connection, retried as a whole when PostgreSQL aborts it for a race.
extension PostgresPool {
    /// How isolated a transaction is from concurrent ones.
    public enum IsolationLevel: Sendable {
        case readCommitted, repeatableRead, serializable

        var begin: PostgresQuery {
            switch self {
            case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
            case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
            case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
            }
        }
    }

    /// Attempts before a serialization failure or deadlock is given back to the caller.
    static let maxTransactionAttempts = 5

    /// Runs `body` in a transaction on one connection: commits when it returns, rolls back when it throws.
    /// On a serialization failure (40001) or deadlock (40P01) the whole closure runs again, after a short
    /// jittered pause, up to 5 attempts; so `body` must have no effects outside the database. Inside `body`
    /// use `tx`, never the pool: with every connection held by a transaction, a pool call would wait forever.
    public func transaction<Value: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        _ body: (PostgresTransaction) async throws -> Value
    ) async throws -> Value {
        var attempt = 1
        while true {
            do {
                return try await runTransaction(isolation: isolation, body)
            } catch let error as PostgresError where error.isRetryableConflict {
                guard attempt < Self.maxTransactionAttempts else {
                    throw PostgresError(
                        kind: .server, sqlState: error.sqlState,
                        message: "transaction aborted by concurrent updates \(attempt) times; retry later",
                        serverDetail: error.serverDetail)
                }
                // 2, 4, 8, 16 ms ceilings, jittered so the losers of a race do not collide again.
                let ceiling = Double(1 << attempt) * 1_000
                try await Task.sleep(for: .microseconds(Double.random(in: ceiling / 2...ceiling)))
                attempt += 1
            }
        }
    }

    private func runTransaction<Value: Sendable>(
        isolation: IsolationLevel, _ body: (PostgresTransaction) async throws -> Value
    ) async throws -> Value {
        if let set = loopTransactions(), let connection = await set.acquire(configuration) {
            let transaction = PostgresLoopTransaction(on: connection, from: set, isolation: isolation)
            // Waited for a connection past its caller's deadline: give it on, run nothing.
            if Task.isCancelled {
                transaction.rollback()
                throw PostgresError.cancelled
            }
            do {
                let handle = PostgresTransaction(.loop(transaction), pool: self)
                defer { handle.ended() }
                let value = try await body(handle)
                try await transaction.commit(sending: handle.takeStatementsAtCommit())
                handle.committed()
                return value
            } catch {
                transaction.rollback()
                throw error
            }
        }
        let lease = try await withCheckedThrowingContinuation { continuation in
            enqueue(.lease(continuation))
        }
        do {
            _ = try await lease.query(isolation.begin)
            let handle = PostgresTransaction(.thread(lease), pool: self)
            defer { handle.ended() }
            let value = try await body(handle)
            for statement in handle.takeStatementsAtCommit() {
                let rows = try await lease.query(statement.query)
                statement.answer?.keep(rows)
            }
            _ = try await lease.query("COMMIT")
            lease.release()
            handle.committed()
            return value
        } catch {
            // After a failed COMMIT the server has already ended the transaction; ROLLBACK then only warns.
            _ = try? await lease.query("ROLLBACK")
            lease.release()
            throw error
        }
    }
}

/// The handle a transaction's closure runs its statements through.
public struct PostgresTransaction: Sendable {
    /// Where the transaction's connection lives: on the caller's event loop, or on a connection thread.
    enum Channel: Sendable {
        case loop(PostgresLoopTransaction)
        case thread(PostgresLease)
    }
    let channel: Channel
    let pool: PostgresPool
    /// What waits for the commit: statements to send with it, recipients to announce after it.
    let atCommit = AtCommit()

    init(_ channel: Channel, pool: PostgresPool) {
        self.channel = channel
        self.pool = pool
    }

    /// Runs one statement inside the transaction.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        switch channel {
        case .loop(let transaction): try await transaction.query(query)
        case .thread(let lease): try await lease.query(query)
        }
    }

    /// Runs a multi-statement script (simple query protocol, no binds): for migrations, which run at startup,
    /// off the event loops, so always on a connection thread.
    func runScript(_ sql: String) async throws {
        guard case .thread(let lease) = channel else {
            throw PostgresError.connectionLost("a migration script cannot run on an event loop's pipeline")
        }
        try await lease.runScript(sql)
    }
}
