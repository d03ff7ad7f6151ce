/// One transaction on a loop's transaction connection. BEGIN is held back until the first statement and goes
/// out in the same segment, so a transaction costs one round trip per statement plus its COMMIT (which
/// carries the statements deferred to it), and one that runs nothing costs nothing. Statements go through `loop.run`, inline on the loop's thread (where
/// handlers run), so a body that hops elsewhere still touches the connection only on its loop.
final class PostgresLoopTransaction: @unchecked Sendable {
    let connection: PostgresLoopConnection
    private let owner: PostgresLoopTransactions
    /// The server session the transaction began on: after a reconnection a statement would run outside it.
    private let session: ObjectIdentifier?
    private var pendingBegin: PostgresQuery?

    init(
        on connection: PostgresLoopConnection, from owner: PostgresLoopTransactions,
        isolation: PostgresPool.IsolationLevel
    ) {
        self.connection = connection
        self.owner = owner
        self.session = connection.connection.map(ObjectIdentifier.init)
        self.pendingBegin = isolation.begin
    }

    /// Runs `query`, after `deferred` in the same segment (their answers kept for their readers: a failure
    /// among them fails the segment, and so `query`, with that failure).
    func query(_ query: PostgresQuery, after deferred: [DeferredStatement] = []) async throws -> PostgresRows
    {
        try await withUnsafeThrowingContinuation { continuation in
            connection.loop.run { [self] in
                guard let current = connection.connection, ObjectIdentifier(current) == session else {
                    return continuation.resume(
                        throwing: PostgresError.connectionLost("the transaction's connection was lost"))
                }
                if let begin = pendingBegin {
                    pendingBegin = nil
                    connection.send(begin, nil, as: .inTransaction(holdSync: true))
                }
                for statement in deferred {
                    connection.send(
                        statement.query, reply: statement.answer.map(PostgresLoopConnection.Reply.deferred),
                        as: .inTransaction(holdSync: true))
                }
                connection.send(query, continuation, as: .inTransaction(holdSync: false))
            }
        }
    }

    /// Sends `deferred` and commits, in one round trip; nothing is sent when nothing ran or waits to.
    func commit(sending deferred: [DeferredStatement]) async throws {
        if pendingBegin == nil || !deferred.isEmpty { _ = try await query("COMMIT", after: deferred) }
        connection.loop.run { [self] in owner.release(connection) }
    }

    /// Rolls back without waiting: the next transaction's statements queue behind the ROLLBACK on the wire.
    func rollback() {
        connection.loop.run { [self] in
            if pendingBegin == nil, let current = connection.connection, ObjectIdentifier(current) == session
            {
                connection.send("ROLLBACK", nil, as: .inTransaction(holdSync: false))
            }
            owner.release(connection)
        }
    }
}
