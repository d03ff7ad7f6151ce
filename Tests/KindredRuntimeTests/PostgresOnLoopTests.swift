import KindredPostgres
import KindredTestSupport
import Logging
import Synchronization
import Testing

@testable import KindredRPC
@testable import KindredRuntime

/// Statements from code running on an RPC event loop go out on that loop's own connection and resume there;
/// everyone else still gets answers. Runs on a cluster of its own, like DatabaseHealthTests.
@Suite(.serialized, .privateCluster("runtime-on-loop")) struct PostgresOnLoopTests {
    @Test(.timeLimit(.minutes(2)))
    func aQueryFromALoopCompletesOnThatLoopsThreadOverItsOwnConnection() async throws {
        try await withLoopPool { pool, loops in
            let offLoop = try await backendPID(pool)
            var loopPIDs: [Int32] = []
            for loop in loops {
                let pid = try await onLoop(loop) { () async throws -> Int32 in
                    let pid = try await waitForOwnConnection(pool, besides: offLoop)
                    #expect(EventLoop.currentLoop === loop)
                    // Once the loop's connection is up, every statement from that loop uses it.
                    for _ in 0..<20 {
                        #expect(try await backendPID(pool) == pid)
                        #expect(EventLoop.currentLoop === loop)
                    }
                    return pid
                }
                loopPIDs.append(pid)
            }
            #expect(Set(loopPIDs).count == loops.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func manyConcurrentQueriesFromTwoLoopsEachGetTheirOwnAnswer() async throws {
        try await withLoopPool { pool, loops in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (loopIndex, loop) in loops.enumerated() {
                    for caller in 0..<200 {
                        group.addTask(executorPreference: loop) {
                            let value = loopIndex * 100_000 + caller
                            for round in 0..<10 {
                                if caller % 50 == 7 && round == 3 {
                                    // A failing statement between its neighbours fails alone.
                                    await #expect(throws: PostgresError.self) {
                                        try await pool.query("SELECT 1 / \(0)")
                                    }
                                    continue
                                }
                                let rows = try await pool.query("SELECT \(value)::int8 + \(round)")
                                #expect(try rows[0].decode(Int.self) == value + round)
                                #expect(EventLoop.currentLoop === loop)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func callersOffAnyLoopStillWorkWithALoopPool() async throws {
        try await withLoopPool { pool, _ in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for value in 0..<100 {
                    group.addTask { try await pool.query("SELECT \(value)::int8")[0].decode(Int.self) }
                }
                var sum = 0
                for try await value in group { sum += value }
                #expect(sum == 4950)
            }
            let total = try await pool.transaction { tx in
                try await tx.query("SELECT 41::int8 + 1")[0].decode(Int.self)
            }
            #expect(total == 42)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func onLoopCallsFailFastWhilePostgresIsDownAndHealAfterARestart() async throws {
        let cluster = try PrivateCluster.current
        try await withLoopPool { pool, loops in
            let load = LoadRecord()
            let running = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for loop in loops {
                        for _ in 0..<8 {
                            group.addTask(executorPreference: loop) {
                                while !load.stop.load(ordering: .relaxed) {
                                    let started = ContinuousClock.now
                                    do {
                                        _ = try await pool.query("SELECT pg_backend_pid(), \(1)")
                                        load.successes.add(1, ordering: .relaxed)
                                    } catch let error as PostgresError {
                                        #expect(error.category == .unavailable, "\(error)")
                                        let took = ContinuousClock.now - started
                                        load.slowestFailure.withLock { $0 = max($0, took) }
                                        try await Task.sleep(for: .milliseconds(5))
                                    }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            try await cluster.stop()
            try await Task.sleep(for: .milliseconds(500))
            #expect(load.slowestFailure.withLock { $0 } < .seconds(1))
            let beforeRestart = load.successes.load(ordering: .relaxed)
            try await cluster.start()
            try await Task.sleep(for: .seconds(3))
            load.stop.store(true, ordering: .relaxed)
            try await running.value
            #expect(load.successes.load(ordering: .relaxed) > beforeRestart + 100)
            // Each loop's own connection comes back too, not only the pool's threads.
            let offLoop = try await backendPID(pool)
            for loop in loops {
                _ = try await onLoop(loop) { try await waitForOwnConnection(pool, besides: offLoop) }
            }
        }
    }

    /// Runs `body` with a pool on the suite's cluster for two RPC loops.
    private func withLoopPool(_ body: (PostgresPool, [EventLoop]) async throws -> Void) async throws {
        var logger = Logger(label: "postgres-on-loop-test")
        logger.logLevel = .warning
        let pool = PostgresPool(
            rpcLoopsConfiguration: try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1),
            logger: logger)
        let group = try EventLoopGroup(count: 2)
        do {
            try await body(pool, group.loops)
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
    }

    private func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        try await Task(executorPreference: loop) { try await body() }.value
    }

    private func backendPID(_ pool: PostgresPool) async throws -> Int32 {
        try await pool.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
    }

    /// The loop's connection comes up in the background after the first call; until then calls use the pool's.
    private func waitForOwnConnection(_ pool: PostgresPool, besides offLoop: Int32) async throws -> Int32 {
        for _ in 0..<500 {
            let pid = try await backendPID(pool)
            if pid != offLoop { return pid }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the loop never got a connection of its own")
        return offLoop
    }
}

/// What the outage test's callers share.
private final class LoadRecord: Sendable {
    let stop = Atomic(false)
    let successes = Atomic<Int>(0)
    let slowestFailure = Mutex(Duration.zero)
}
