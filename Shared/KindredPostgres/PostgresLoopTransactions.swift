internal import DequeModule

/// The connections one event loop keeps for explicit transactions, beside its shared connection: each holds one
/// transaction at a time, driven by the loop like the shared one, so a transaction's statements and its COMMIT
/// never leave the handler's thread (on the connection threads each statement cost two thread hops). Up to
/// `limit` are made, when the server opens them at its start (`openAll`) or else lazily; when all are held, the next transaction waits on the loop for one, in order. A
/// transaction that finds none up (the first ones of the process, or after an outage) uses the connection
/// threads meanwhile. Everything here is touched only on the loop's thread (hence @unchecked Sendable).
final class PostgresLoopTransactions: @unchecked Sendable {
    let loop: any PostgresIOLoop
    private let limit: Int
    private var made: [PostgresLoopConnection] = []
    private var idle: [PostgresLoopConnection] = []
    private var waiters = Deque<UnsafeContinuation<PostgresLoopConnection?, Never>>()
    private var isClosed = false

    init(loop: any PostgresIOLoop, limit: Int) {
        self.loop = loop
        self.limit = limit
    }

    /// A connection that is up, held by the caller until `release`; nil when none is up (use the threads).
    func acquire(_ configuration: PostgresConfiguration) async -> PostgresLoopConnection? {
        if isClosed { return nil }
        if let index = idle.lastIndex(where: \.isUp) { return idle.remove(at: index) }
        // Any left are down (broken while idle, or still connecting): they reconnect in the background.
        idle.forEach { $0.startConnecting(configuration) }
        if made.count < limit {
            make(configuration)
            return nil
        }
        if !idle.isEmpty { return nil }
        return await withUnsafeContinuation { waiters.append($0) }
    }

    /// How many of the connections made are up now (loop thread only).
    var connectionsUp: Int { made.count(where: \.isUp) }

    /// Makes and starts connecting every connection not made yet (loop thread only).
    func openAll(_ configuration: PostgresConfiguration) {
        while !isClosed, made.count < limit { make(configuration) }
    }

    private func make(_ configuration: PostgresConfiguration) {
        let connection = PostgresLoopConnection(loop: loop)
        made.append(connection)
        idle.insert(connection, at: 0)
        connection.startConnecting(configuration)
    }

    /// Gives `connection` to the oldest waiting transaction, or back to the idle set (loop thread only).
    func release(_ connection: PostgresLoopConnection) {
        loop.assertInLoop()
        if let waiter = waiters.popFirst() {
            waiter.resume(returning: connection.isUp && !isClosed ? connection : nil)
        } else {
            idle.append(connection)
        }
    }

    /// Stops every connection; waiting transactions go to the connection threads (which fail them as closed).
    func shutdown() {
        isClosed = true
        made.forEach { $0.shutdown() }
        while let waiter = waiters.popFirst() { waiter.resume(returning: nil) }
    }
}
