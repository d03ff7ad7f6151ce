import KindredTestSupport
import Synchronization
import Testing

@testable import KindredPostgres

extension DatabaseTests {
    @Suite struct Pool {
        @Test func aRepeatedStatementIsPreparedOnceAndReused() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                for value in 0..<5 {
                    let rows = try await pool.query("SELECT \(value) + 1 AS reuse_probe")
                    #expect(try rows[0].decode(Int.self, column: 0) == value + 1)
                }
                let prepared = try await pool.query(
                    """
                    SELECT count(*)::int8 FROM pg_prepared_statements WHERE statement = 'SELECT $1 + 1 AS reuse_probe'
                    """)
                #expect(try prepared[0].decode(Int.self, column: 0) == 1)
            }
        }

        @Test func manyConcurrentTasksEachGetTheirOwnAnswer() async throws {
            try await TestDatabase.withPool(size: 3) { pool in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for value in 0..<500 {
                        group.addTask {
                            let rows = try await pool.query("SELECT \(value) * 2, \(String(value))")
                            let (doubled, text) = try rows[0].decode((Int, String).self)
                            #expect(doubled == value * 2)
                            #expect(text == String(value))
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }

        @Test func aFailingStatementDoesNotDisturbItsNeighboursInThePipeline() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for value in 0..<100 {
                        group.addTask {
                            if value % 3 == 0 {
                                do {
                                    _ = try await pool.query("SELECT 1 / \(0) -- \(value)")
                                    return false
                                } catch let error as PostgresError {
                                    return error.sqlState == "22012"
                                }
                            }
                            let rows = try await pool.query("SELECT \(value)")
                            return try rows[0].decode(Int.self, column: 0) == value
                        }
                    }
                    for try await ok in group { #expect(ok) }
                }
            }
        }

        @Test func anInvalidStatementRepeatedInOneBatchReportsItsSyntaxErrorEveryTime() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                try await withThrowingTaskGroup(of: String?.self) { group in
                    for value in 0..<40 {
                        group.addTask {
                            do {
                                _ = try await pool.query("SELEC \(value)")
                                return nil
                            } catch let error as PostgresError {
                                return error.sqlState
                            }
                        }
                    }
                    for try await sqlState in group { #expect(sqlState == "42601") }
                }
                let after = try await pool.query("SELECT 1")
                #expect(after.count == 1)
            }
        }

        @Test func aTableChangedUnderAPreparedStatementIsPreparedAgain() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    let select = PostgresQuery(unsafeSQL: "SELECT * FROM \(schema).t")
                    try await pool.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).t (a int)"))
                    #expect(try await pool.query(select).columnNames == ["a"])
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "ALTER TABLE \(schema).t ADD COLUMN b text"))
                    #expect(try await pool.query(select).columnNames == ["a", "b"])
                }
            }
        }

        /// The busy statement waits on an advisory lock the test holds, so the connection stays busy until the
        /// test says so: the cancelled caller must be answered while it is, or the test never ends.
        @Test(.timeLimit(.minutes(1)))
        func aCancelledCallerLeavesTheQueueWithoutWaitingForABusyConnection() async throws {
            try await TestDatabase.withPool(size: 1) { holder in
                try await TestDatabase.withPool(size: 1) { pool in
                    let lock = 7_301
                    try await holder.query("SELECT pg_advisory_lock(\(lock))")
                    let busy = Task { try await pool.query("SELECT pg_advisory_xact_lock(\(lock))") }
                    try await eventually("a caller waits for the lock") {
                        try await waitingForTheLock(holder)
                    }
                    let waiting = Task { try await pool.query("SELECT 1") }
                    try await eventually("one shared connection") {
                        pool.state.withLock { $0.shared.count } == 1
                    }
                    waiting.cancel()
                    let error = await #expect(throws: PostgresError.self) { try await waiting.value }
                    #expect(error?.category == .cancelled)
                    #expect(pool.state.withLock { $0.shared.isEmpty })
                    #expect(try await waitingForTheLock(holder))
                    try await holder.query("SELECT pg_advisory_unlock(\(lock))")
                    _ = try await busy.value
                }
            }
        }

        private func waitingForTheLock(_ holder: PostgresPool) async throws -> Bool {
            try await holder.query(
                "SELECT count(*)::int8 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )[0].decode(Int.self) == 1
        }

        @Test func aPipelineOfLargeResultsCompletes() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<64 {
                        group.addTask {
                            let rows = try await pool.query(
                                "SELECT repeat('x', \(Int32(200_000))), \(String(repeating: "y", count: 100_000))"
                            )
                            return try rows[0].decode(String.self, column: 0).utf8.count
                        }
                    }
                    for try await size in group { #expect(size == 200_000) }
                }
            }
        }

        @Test func aUniqueViolationIsClassifiedWithoutLeakingTheValue() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).users (email text UNIQUE)"))
                    var insert = PostgresQuery(unsafeSQL: "INSERT INTO \(schema).users VALUES (")
                    insert.append(bind: "ada@example.com")
                    insert.append(unsafeSQL: ")")
                    try await pool.query(insert)
                    let error = await #expect(throws: PostgresError.self) { try await pool.query(insert) }
                    #expect(error?.isUniqueViolation == true)
                    #expect(error?.category == .alreadyExists)
                    #expect(error?.message.contains("ada@example.com") == false)
                    #expect(error?.serverDetail?.contains("ada@example.com") == true)
                }
            }
        }

        @Test func affectedRowsCountsWhatAStatementChanged() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await pool.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).t (n int)"))
                    let insert = try await pool.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(schema).t SELECT generate_series(1, 7)"))
                    #expect(insert.affectedRows == 7)
                    #expect(insert.isEmpty)
                }
            }
        }

        @Test func theStatementTimeoutCancelsAndIsClassified() async throws {
            let pool = try TestDatabase.makePool(size: 1, statementTimeout: .milliseconds(100))
            let error = await #expect(throws: PostgresError.self) {
                try await pool.query("SELECT pg_sleep(2)")
            }
            #expect(error?.isQueryCanceled == true)
            #expect(error?.category == .cancelled)
            let after = try await pool.query("SELECT 1")
            #expect(after.count == 1)
            await pool.close()
        }
    }
}
