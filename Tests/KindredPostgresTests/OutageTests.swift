import KindredTestSupport
import Testing

@testable import KindredPostgres

extension DatabaseTests {
    /// Each step waits for the event it needs (a reachability change, answers counted); nothing is timed, so
    /// a loaded machine only makes it slower. A pool that never heals, or callers left hanging, run into the
    /// time limit.
    @Suite struct Outage {
        /// Waits for the pool's reachability to become `expected`, as the pool announces it.
        func waitFor(_ expected: Bool, on pool: PostgresPool) async {
            for await reachable in pool.reachabilityChanges() where reachable == expected { return }
        }

        @Test(.timeLimit(.minutes(2)))
        func callsFailFastWhilePostgresIsDownAndThePoolHealsAfterARestart() async throws {
            let pool = try TestDatabase.makePool(size: 4)
            let changes = Locked<[Bool]>([])
            let watcher = Task {
                for await reachable in pool.reachabilityChanges() {
                    changes.withLock { $0.append(reachable) }
                }
            }
            await waitFor(true, on: pool)
            let stop = Locked(false)
            let successes = Counter()
            let failures = Counter()
            let load = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            while !stop.value {
                                do {
                                    _ = try await pool.query("SELECT pg_backend_pid(), \(1)")
                                    successes.increment()
                                } catch let error as PostgresError {
                                    #expect(error.category == .unavailable, "\(error)")
                                    failures.increment()
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await eventually("100 answers before the outage") { successes.value >= 100 }
            try await PrivateCluster.current.stop()
            await waitFor(false, on: pool)
            // Failing fast means refused at once, never queued to wait for the next connection attempt: while
            // the call is out, the queue stays empty (the 16 callers above are refused the same way).
            let answered = Locked(false)
            let call = Task {
                defer { answered.withLock { $0 = true } }
                return try await pool.query("SELECT 1")
            }
            var queued = false
            while !answered.value, !queued {
                queued = pool.state.withLock { !$0.shared.isEmpty }
                await Task.yield()
            }
            #expect(!queued)
            let error = await #expect(throws: PostgresError.self) { try await call.value }
            #expect(error?.category == .unavailable)
            // Every caller keeps being answered while PostgreSQL is down.
            let failuresWhileDown = failures.value
            try await eventually("100 refusals during it") { failures.value >= failuresWhileDown + 100 }
            #expect(pool.state.withLock { $0.shared.isEmpty })
            let beforeRestart = successes.value
            try await PrivateCluster.current.start()
            await waitFor(true, on: pool)
            try await eventually("100 answers after the restart") { successes.value > beforeRestart + 100 }
            stop.withLock { $0 = true }
            try await load.value
            let after = try await pool.query("SELECT 1")
            #expect(after.count == 1)
            await pool.close()
            await watcher.value
            // Observers hear "not reachable" first while the pool is still connecting.
            #expect(Array(changes.value.drop(while: { !$0 })).starts(with: [true, false, true]))
        }
    }
}
