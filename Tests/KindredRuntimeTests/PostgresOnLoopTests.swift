import KindredTestSupport
import Logging
import Synchronization
import Testing

@testable import KindredPostgres
@testable import KindredRPC
@testable import KindredRuntime

/// Statements from code running on an RPC event loop go out on that loop's own connection and resume there;
/// everyone else still gets answers. Runs on a cluster of its own, like DatabaseHealthTests.
@Suite(.serialized, .privateCluster("runtime-on-loop")) struct PostgresOnLoopTests {
    @Test(.timeLimit(.minutes(2)))
    func aQueryFromALoopCompletesOnThatLoopsThreadOverItsOwnConnection() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            var loopPIDs: [Int32] = []
            for loop in loops {
                let pid = try await LoopPool.onLoop(loop) { () async throws -> Int32 in
                    let pid = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                    #expect(EventLoop.currentLoop === loop)
                    // Once the loop's connection is up, every statement from that loop uses it.
                    for _ in 0..<20 {
                        #expect(try await LoopPool.backendPID(pool) == pid)
                        #expect(EventLoop.currentLoop === loop)
                    }
                    return pid
                }
                loopPIDs.append(pid)
            }
            #expect(Set(loopPIDs).count == loops.count)
        }
    }

    /// A backend answers its connection's statements in order, and a write's COMMIT waits for the WAL to reach
    /// the disk: a pure read sent while a write is in flight on its loop's shared connection takes the loop's
    /// connection for reads and is answered first; with nothing in flight it shares the loop's connection.
    @Test(.timeLimit(.minutes(2)))
    func aPureReadSentWhileAWriteIsInFlightOnItsLoopIsAnsweredBeforeTheWrite() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[0]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                #expect(try await LoopPool.pureReadBackendPID(pool) == shared, "nothing in flight: it shares")
                try await eventually("the loop's connection for reads is up") {
                    pool.loopConnection(.reads)?.isUp == true
                }
                let finished = try await withThrowingTaskGroup(of: String.self) { group in
                    // Sent first, in the same loop pass: the stand-in for a write stuck in its commit.
                    group.addTask(executorPreference: loops[0]) {
                        try await pool.query("SELECT pg_sleep(\(1.0))")
                        return "write"
                    }
                    group.addTask(executorPreference: loops[0]) {
                        for _ in 0..<5 {
                            let pid = try await LoopPool.pureReadBackendPID(pool)
                            #expect(pid != shared)
                        }
                        return "reads"
                    }
                    var finished: [String] = []
                    for try await name in group { finished.append(name) }
                    return finished
                }
                #expect(finished == ["reads", "write"])
                let afterTheWrite = try await LoopPool.pureReadBackendPID(pool)
                #expect(afterTheWrite == shared, "the write answered: it shares")
            }
        }
    }

    /// The loop's connection for reads can go down (its backend ended, PostgreSQL restarted): a pure read sent
    /// past a write meanwhile waits behind the write on the shared connection rather than failing, and once the
    /// reads connection is back, reads past a write take it again.
    @Test(.timeLimit(.minutes(2)))
    func aPureReadPastAWriteWhileTheReadsConnectionIsDownWaitsOnTheSharedOne() async throws {
        try await LoopPool.with { pool, loops in
            let offLoop = try await LoopPool.backendPID(pool)
            try await LoopPool.onLoop(loops[0]) {
                let shared = try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                try await eventually("the loop's connection for reads is up") {
                    pool.loopConnection(.reads)?.isUp == true
                }
                let readsBefore = try await backendOfAReadPastAWrite(pool, on: loops[0])
                #expect(readsBefore != shared)
                let key = PostgresPool.LoopLaneKey(loop: ObjectIdentifier(loops[0]), lane: .reads)
                let reads = try #require(pool.loopConnections.withLock { $0[key] })
                try await Task.detached {
                    _ = try await pool.query("SELECT pg_terminate_backend(\(readsBefore))")
                }
                .value
                try await eventually("the loop saw its reads connection end") { !reads.isUp }

                let write = Task(executorPreference: loops[0]) {
                    try await pool.query("SELECT pg_sleep(\(0.5))")
                }
                try await eventually("the write is in flight") {
                    pool.loopConnection(.shared)?.hasWriteInFlight == true
                }
                // From here to the read's send nothing suspends, so the reconnect, installed by a job of this
                // loop, cannot come up in between.
                var read: PostgresQuery = "SELECT pg_backend_pid()"
                read.isPureRead = true
                #expect(pool.loopConnection(for: read) === pool.loopConnection(.shared))
                #expect(try await LoopPool.pureReadBackendPID(pool) == shared, "answered behind the write")
                _ = try await write.value

                try await eventually("reads past a write take a connection of their own again") {
                    let pid = try await backendOfAReadPastAWrite(pool, on: loops[0])
                    return pid != shared && pid != readsBefore
                }
            }
        }
    }

    /// The backend that answers a pure read sent from `loop` while a half-second write is in flight there.
    private func backendOfAReadPastAWrite(_ pool: PostgresPool, on loop: EventLoop) async throws -> Int32 {
        try await withThrowingTaskGroup(of: Int32?.self) { group in
            // Sent first, in the same loop pass.
            group.addTask(executorPreference: loop) {
                try await pool.query("SELECT pg_sleep(\(0.5))")
                return nil
            }
            group.addTask(executorPreference: loop) { try await LoopPool.pureReadBackendPID(pool) }
            var reader: Int32?
            for try await pid in group { reader = reader ?? pid }
            return try #require(reader)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func manyConcurrentQueriesFromTwoLoopsEachGetTheirOwnAnswer() async throws {
        try await LoopPool.with { pool, loops in
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
        try await LoopPool.with { pool, _ in
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
        try await LoopPool.with { pool, loops in
            let load = LoadRecord()
            let running = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for loop in loops {
                        for _ in 0..<8 {
                            group.addTask(executorPreference: loop) {
                                while !load.stop.load(ordering: .relaxed) {
                                    do {
                                        _ = try await pool.query("SELECT pg_backend_pid(), \(1)")
                                        load.successes.add(1, ordering: .relaxed)
                                    } catch let error as PostgresError {
                                        #expect(error.category == .unavailable, "\(error)")
                                        load.failures.add(1, ordering: .relaxed)
                                        try await Task.sleep(for: .milliseconds(5))
                                    }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Each step waits for what it needs, never for a time: callers answered before the outage, callers
            // answered (refused) during it, callers served again after the restart. A hang hits the time limit.
            try await eventually("100 answers before the outage") {
                load.successes.load(ordering: .relaxed) >= 100
            }
            try await cluster.stop()
            let failuresBefore = load.failures.load(ordering: .relaxed)
            try await eventually("100 refusals during it") {
                load.failures.load(ordering: .relaxed) >= failuresBefore + 100
            }
            let beforeRestart = load.successes.load(ordering: .relaxed)
            try await cluster.start()
            try await eventually("100 answers after the restart") {
                load.successes.load(ordering: .relaxed) > beforeRestart + 100
            }
            load.stop.store(true, ordering: .relaxed)
            try await running.value
            // The pool's threads reconnect on their own backoff, which the loops' connections may beat.
            for await reachable in pool.reachabilityChanges() where reachable { break }
            // Each loop's own connection comes back too, not only the pool's threads.
            let offLoop = try await LoopPool.backendPID(pool)
            for loop in loops {
                _ = try await LoopPool.onLoop(loop) {
                    try await LoopPool.waitForOwnConnection(pool, besides: offLoop)
                }
            }
        }
    }
}

/// What the outage test's callers share.
private final class LoadRecord: Sendable {
    let stop = Atomic(false)
    let successes = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
}
