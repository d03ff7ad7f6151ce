import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    @Suite struct Outage {
        /// Waits for the pool's reachability to become `expected`, up to `limit`.
        func waitFor(_ expected: Bool, on pool: PostgresPool, within limit: Duration) async throws {
            let deadline = ContinuousClock.now + limit
            while pool.isReachable != expected {
                guard ContinuousClock.now < deadline else {
                    Issue.record("reachability did not become \(expected) within \(limit)")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @Test func callsFailFastWhilePostgresIsDownAndThePoolHealsAfterARestart() async throws {
            let pool = try TestDatabase.makePool(size: 4)
            let changes = Locked<[Bool]>([])
            let watcher = Task {
                for await reachable in pool.reachabilityChanges() {
                    changes.withLock { $0.append(reachable) }
                }
            }
            try await waitFor(true, on: pool, within: .seconds(5))
            let stop = Locked(false)
            let slowestFailure = Locked(Duration.zero)
            let successes = Counter()
            let load = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            while !stop.value {
                                let started = ContinuousClock.now
                                do {
                                    _ = try await pool.query("SELECT pg_backend_pid(), \(1)")
                                    successes.increment()
                                } catch let error as PostgresError {
                                    #expect(error.category == .unavailable, "\(error)")
                                    let took = ContinuousClock.now - started
                                    slowestFailure.withLock { $0 = max($0, took) }
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            try await PrivateCluster.current.stop()
            try await waitFor(false, on: pool, within: .seconds(5))
            let started = ContinuousClock.now
            let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
            #expect(ContinuousClock.now - started < .milliseconds(100))
            #expect(error?.category == .unavailable)
            try await Task.sleep(for: .milliseconds(500))
            let beforeRestart = successes.value
            try await PrivateCluster.current.start()
            try await waitFor(true, on: pool, within: .seconds(10))
            try await Task.sleep(for: .milliseconds(300))
            stop.withLock { $0 = true }
            try await load.value
            #expect(successes.value > beforeRestart)
            #expect(slowestFailure.value < .seconds(1))
            let after = try await pool.query("SELECT 1")
            #expect(after.count == 1)
            await pool.close()
            await watcher.value
            // Observers hear "not reachable" first while the pool is still connecting.
            #expect(Array(changes.value.drop(while: { !$0 })).starts(with: [true, false, true]))
        }
    }
}
