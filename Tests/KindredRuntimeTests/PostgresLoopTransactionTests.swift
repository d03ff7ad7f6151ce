import KindredTestSupport
import Logging
import Synchronization
import Testing

@testable import KindredPostgres
@testable import KindredRPC
@testable import KindredRuntime

/// Transactions from code on an RPC event loop run on that loop's own transaction connections: their
/// statements and COMMIT resume on the loop's thread, each transaction holds its connection alone, and more
/// transactions than connections wait on the loop for one. Runs on a cluster of its own.
@Suite(.serialized, .privateCluster("runtime-loop-transactions")) struct PostgresLoopTransactionTests {
    @Test(.timeLimit(.minutes(2)))
    func aTransactionFromALoopRunsOnAConnectionOfThatLoopAndResumesOnItsThread() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            let loop = loops[0]
            try await LoopPool.onLoop(loop) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                let own = try await waitForTransactionConnection(pool, besides: [offLoop, shared])
                for _ in 0..<20 {
                    let pids = try await pool.transaction { tx in
                        let first = try await tx.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
                        #expect(EventLoop.currentLoop === loop)
                        let second = try await tx.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
                        #expect(EventLoop.currentLoop === loop)
                        return [first, second]
                    }
                    // One connection at a time: released after its COMMIT and taken again by the next one.
                    #expect(pids == [own, own])
                    #expect(EventLoop.currentLoop === loop)
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aThrowingBodyRollsBackAndTheConnectionServesTheNextTransaction() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE IF NOT EXISTS public.loop_tx_rows (id int8 PRIMARY KEY)")
            try await pool.query("TRUNCATE public.loop_tx_rows")
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[1]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                _ = try await waitForTransactionConnection(pool, besides: [offLoop, shared])
                // A statement that fails after a write: the write is rolled back with it.
                await #expect(throws: PostgresError.self) {
                    try await pool.transaction { tx in
                        try await tx.query("INSERT INTO public.loop_tx_rows (id) VALUES (\(1))")
                        try await tx.query("SELECT 1 / \(0)")
                    }
                }
                // A body that throws its own error after a write: rolled back too.
                struct Refused: Error {}
                await #expect(throws: Refused.self) {
                    try await pool.transaction { tx in
                        try await tx.query("INSERT INTO public.loop_tx_rows (id) VALUES (\(2))")
                        throw Refused()
                    }
                }
                try await pool.transaction { tx in
                    try await tx.query("INSERT INTO public.loop_tx_rows (id) VALUES (\(3))")
                }
            }
            let ids = try await pool.query("SELECT id FROM public.loop_tx_rows ORDER BY id").map {
                try $0.decode(Int.self)
            }
            #expect(ids == [3])
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func moreTransactionsThanConnectionsWaitTheirTurnAndEachSeesItsOwnWrites() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query(
                "CREATE TABLE IF NOT EXISTS public.loop_tx_counter (id int4 PRIMARY KEY, n int8)")
            try await pool.query(
                "INSERT INTO public.loop_tx_counter VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET n = 0")
            let perLoop = 150
            try await withThrowingTaskGroup(of: Void.self) { group in
                for loop in loops {
                    for _ in 0..<perLoop {
                        group.addTask(executorPreference: loop) {
                            // Read, then write what was read plus one: lost updates would show in the total.
                            try await pool.transaction { tx in
                                let n = try await tx.query(
                                    "SELECT n FROM public.loop_tx_counter WHERE id = \(1) FOR UPDATE")[0]
                                    .decode(Int.self)
                                try await tx.query(
                                    "UPDATE public.loop_tx_counter SET n = \(n + 1) WHERE id = \(1)")
                                #expect(EventLoop.currentLoop === loop)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await pool.query("SELECT n FROM public.loop_tx_counter WHERE id = \(1)")[0]
                .decode(Int.self)
            #expect(total == perLoop * loops.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aTransactionConnectionKilledWhileIdleIsReplacedAndLaterTransactionsSucceed() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[0]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                let own = try await waitForTransactionConnection(pool, besides: [offLoop, shared])
                try await pool.query("SELECT pg_terminate_backend(\(own))")
                // The first transactions after it may use the connection threads while it reconnects; none fails
                // for long, and the loop gets a transaction connection of its own again.
                let again = try await waitForTransactionConnection(pool, besides: [offLoop, shared, own])
                #expect(again != own)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func connectionsOpenedAtTheStartServeTheFirstTransactionOnTheLoop() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            pool.openConnections(on: loops[0])
            // The pool's connection thread, the loop's two for single statements and its transaction connections:
            // the most a pool on one loop opens, less the LISTEN connection, which nothing here asks for. Counted
            // among the backends started since the pool's first, so that one an earlier test closed, still
            // ending, is not.
            #expect(pool.configuration.poolSize == 1)
            let expected = pool.configuration.mostConnections(eventLoops: 1) - 1
            let backends = {
                try await pool.query(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE backend_type = 'client backend' AND pid <> \(offLoop)
                        AND backend_start >= (SELECT backend_start FROM pg_stat_activity WHERE pid = \(offLoop))
                    """
                )[0].decode(Int.self) + 1
            }
            // A backend is listed before the loop has read its first ReadyForQuery; until then a transaction
            // would use the connection thread, as one does before the connections are up.
            let limit = pool.configuration.loopTransactionConnections
            try await eventually("the loop's connections are open") { try await backends() >= expected }
            try await eventually("the loop's transaction connections are up") {
                try await LoopPool.onLoop(loops[0]) { pool.loopTransactionConnectionsUp() } == limit
            }
            #expect(try await backends() == expected)
            let pid = try await LoopPool.onLoop(loops[0]) {
                try await pool.transaction { tx in
                    try await tx.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
                }
            }
            #expect(pid != offLoop)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func statementsDeferredToTheCommitGoOutWithItOnTheLoopsConnection() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE IF NOT EXISTS public.loop_tx_deferred (id int8 PRIMARY KEY)")
            try await pool.query("TRUNCATE public.loop_tx_deferred")
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[0]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                _ = try await waitForTransactionConnection(pool, besides: [offLoop, shared])
                try await DeferredStatementScenario.play(on: pool, table: "public.loop_tx_deferred")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func statementsSentTogetherGoOutInOneSegmentAndAnswerInOrder() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE IF NOT EXISTS public.loop_tx_pipelined (id int8 PRIMARY KEY)")
            try await pool.query("TRUNCATE public.loop_tx_pipelined")
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[0]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                _ = try await waitForTransactionConnection(pool, besides: [offLoop, shared])
                try await PipelinedStatementScenario.play(on: pool, table: "public.loop_tx_pipelined")
            }
        }
    }

    /// The loop's transaction connection comes up in the background after its first transaction; until then
    /// transactions use the pool's threads. Returns its backend's pid. A transaction that fails because its
    /// connection was just killed is retried.
    private func waitForTransactionConnection(_ pool: PostgresPool, besides others: Set<Int32>) async throws
        -> Int32
    {
        var found: Int32 = 0
        try await eventually("the loop has a transaction connection of its own") {
            let pid = try? await pool.transaction { tx in
                try await tx.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
            }
            found = pid ?? 0
            return pid.map { !others.contains($0) } ?? false
        }
        return found
    }
}
