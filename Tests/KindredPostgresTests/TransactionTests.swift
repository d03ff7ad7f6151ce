import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    @Suite struct Transactions {
        struct Rollback: Error {}

        @Test func aTransactionCommitsWhenTheClosureReturnsAndRollsBackWhenItThrows() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    let table = "\(schema).items"
                    try await pool.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (n int)"))
                    try await pool.transaction { tx in
                        try await tx.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1)"))
                        try await tx.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (2)"))
                    }
                    await #expect(throws: Rollback.self) {
                        try await pool.transaction { tx in
                            try await tx.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (3)"))
                            throw Rollback()
                        }
                    }
                    let rows = try await pool.query(
                        PostgresQuery(unsafeSQL: "SELECT n FROM \(table) ORDER BY n"))
                    #expect(try rows.map { try $0.decode(Int32.self, column: 0) } == [1, 2])
                }
            }
        }

        @Test func statementsDeferredToTheCommitRunBeforeItOnAConnectionThread() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).ids (id int8 PRIMARY KEY)"))
                    try await DeferredStatementScenario.play(on: pool, table: "\(schema).ids")
                }
            }
        }

        @Test func statementsSentTogetherAnswerInOrderOnAConnectionThread() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).ids (id int8 PRIMARY KEY)"))
                    try await PipelinedStatementScenario.play(on: pool, table: "\(schema).ids")
                }
            }
        }

        @Test func concurrentSerializableTransactionsAreRetriedUntilBothCommit() async throws {
            try await TestDatabase.withPool(size: 2) { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    let table = "\(schema).doctors"
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id int, on_call bool)"))
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1, true), (2, true)"))
                    let attempts = Counter()
                    let firstReads = Counter()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for id in [1, 2] {
                            group.addTask {
                                try await pool.transaction(isolation: .serializable) { tx in
                                    let attempt = attempts.increment()
                                    try await tx.query(
                                        PostgresQuery(
                                            unsafeSQL: "SELECT count(*) FROM \(table) WHERE on_call"))
                                    // Both first attempts read before either writes: a classic write skew.
                                    if attempt <= 2 {
                                        firstReads.increment()
                                        try await eventually("both first attempts read") {
                                            firstReads.value == 2
                                        }
                                    }
                                    var update = PostgresQuery(
                                        unsafeSQL: "UPDATE \(table) SET on_call = false WHERE id = ")
                                    update.append(bind: Int32(id))
                                    try await tx.query(update)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    #expect(attempts.value == 3)
                    let rows = try await pool.query(
                        PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table) WHERE on_call"))
                    #expect(try rows[0].decode(Int.self, column: 0) == 0)
                }
            }
        }

        @Test func aConflictThatNeverClearsEndsInAClearRetryableError() async throws {
            try await TestDatabase.withPool(size: 1) { pool in
                let attempts = Counter()
                let error = await #expect(throws: PostgresError.self) {
                    try await pool.transaction { _ in
                        attempts.increment()
                        throw PostgresError(kind: .server, sqlState: "40P01", message: "deadlock")
                    }
                }
                #expect(attempts.value == 5)
                #expect(error?.category == .retryableConflict)
                #expect(error?.message.contains("5 times") == true)
                let after = try await pool.query("SELECT 1")
                #expect(after.count == 1)
            }
        }
    }
}
