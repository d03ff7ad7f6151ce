internal import Synchronization

/// Statements from handlers running on an event loop go out on that loop's own connections, so neither the
/// send nor the answer crosses a thread. A loop whose connection is not up yet (or is reconnecting) uses the
/// connection threads meanwhile: they keep fail-fast and reachability exactly as before.
extension PostgresPool {
    /// A loop's two connections for its handlers' single statements. Everything goes out on `shared` (its pure
    /// reads batched); a pure read sent while a write is in flight there takes `reads` instead. A backend
    /// answers its connection's statements in order, and a write's COMMIT waits for the WAL to reach the disk,
    /// so on a disk that stalls for a second every read of the loop waited behind it, and the loop's admission
    /// limit shed calls that PostgreSQL could have answered at once. Only then: sending every pure read to
    /// `reads` cost the machine 6–9% more CPU a call in the mix (Tests/Benchmarks/README.md, "Session 37").
    enum LoopLane: Hashable {
        case shared
        case reads
    }

    struct LoopLaneKey: Hashable {
        let loop: ObjectIdentifier
        let lane: LoopLane
    }

    /// The calling loop's connection for `query` (see `LoopLane`), when it is an event loop's thread and its
    /// shared connection is up.
    func loopConnection(for query: PostgresQuery) -> PostgresLoopConnection? {
        guard let shared = loopConnection(.shared) else { return nil }
        guard query.isPureRead, shared.hasWriteInFlight else { return shared }
        return loopConnection(.reads) ?? shared
    }

    /// The calling thread's loop connection for `lane`, when it is an event loop's thread and that connection
    /// is up. Called on that thread only: the connection's state is the loop's.
    func loopConnection(_ lane: LoopLane) -> PostgresLoopConnection? {
        guard let loop = currentLoop(), !loopsClosed.load(ordering: .relaxed) else { return nil }
        let key = LoopLaneKey(loop: ObjectIdentifier(loop), lane: lane)
        let connection = loopConnections.withLock { connections in
            if let existing = connections[key] { return existing }
            let made = PostgresLoopConnection(loop: loop)
            connections[key] = made
            return made
        }
        if connection.isUp { return connection }
        connection.startConnecting(configuration)
        return nil
    }

    /// Opens `loop`'s own connections now, the two for its handlers' single statements and its transaction
    /// connections, rather than at its first calls: until they are up those calls queue for the connection
    /// threads, so a fresh instance taking its share of a loaded cluster would be slow (and shed) at first.
    public func openConnections(on loop: any PostgresIOLoop) {
        loop.run { [self] in
            _ = loopConnection(.shared)
            _ = loopConnection(.reads)
            loopTransactions()?.openAll(configuration)
        }
    }

    /// Where a task that runs beside the calls (an event feed's sequencer, a stream's follower) should run: on
    /// an event loop, whose statements go out on that loop's own connection. On the cooperative pool instead,
    /// each statement hops to a connection thread and back, and each ring to a stream crosses threads twice
    /// (perf on kindred-family: a fifth of its CPU and three context switches a call). Nil without loops.
    public func backgroundExecutor() -> (any TaskExecutor)? { backgroundLoop() }

    /// How many of the calling loop's transaction connections are up: 0 off a loop, or before any was made.
    func loopTransactionConnectionsUp() -> Int { loopTransactions()?.connectionsUp ?? 0 }

    /// The calling thread's loop's transaction connections, when it is an event loop's thread.
    func loopTransactions() -> PostgresLoopTransactions? {
        guard let loop = currentLoop(), !loopsClosed.load(ordering: .relaxed) else { return nil }
        return loopTransactionSets.withLock { sets in
            if let existing = sets[ObjectIdentifier(loop)] { return existing }
            let made = PostgresLoopTransactions(loop: loop, limit: configuration.loopTransactionConnections)
            sets[ObjectIdentifier(loop)] = made
            return made
        }
    }

    /// Stops every loop connection; each disconnects on its own loop's next iteration.
    func closeLoopConnections() {
        loopsClosed.store(true, ordering: .relaxed)
        let connections = loopConnections.withLock { connections in
            defer { connections.removeAll() }
            return Array(connections.values)
        }
        for connection in connections { connection.loop.run { connection.shutdown() } }
        let sets = loopTransactionSets.withLock { sets in
            defer { sets.removeAll() }
            return Array(sets.values)
        }
        for set in sets { set.loop.run { set.shutdown() } }
    }
}
