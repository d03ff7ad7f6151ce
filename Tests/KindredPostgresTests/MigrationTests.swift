import KindredPostgres
import Testing

extension DatabaseTests {
    @Suite struct Migrations {
        static let shipped = [
            Migration(
                version: 1, name: "create_accounts",
                sql: """
                    CREATE TABLE accounts (id bigint PRIMARY KEY, email text NOT NULL);
                    CREATE INDEX accounts_email ON accounts (email);
                    """),
            Migration(version: 2, name: "add_name", sql: "ALTER TABLE accounts ADD COLUMN name text;"),
        ]

        /// Migration SQL is written unqualified here; the runner's caller points search_path at the schema.
        func runner(_ schema: String, _ migrations: [Migration] = shipped) throws -> MigrationRunner {
            let qualified = migrations.map {
                Migration(
                    version: $0.version, name: $0.name, sql: "SET LOCAL search_path TO \(schema);\n" + $0.sql)
            }
            return try MigrationRunner(schema: schema, migrations: qualified)
        }

        @Test func pendingMigrationsApplyOnceAndARerunDoesNothing() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    #expect(try await runner(schema).migrate(pool).map(\.version) == [1, 2])
                    #expect(try await runner(schema).migrate(pool).isEmpty)
                    let rows = try await pool.query(
                        PostgresQuery(
                            unsafeSQL:
                                "SELECT version, name, checksum FROM \(schema).schema_migrations ORDER BY version"
                        ))
                    let recorded = try rows.decode((Int, String, String).self)
                    #expect(recorded.map(\.0) == [1, 2])
                    #expect(recorded[0].2 == (try runner(schema).migrations[0].checksum))
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(schema).accounts VALUES (1, 'a', 'b')"))
                }
            }
        }

        @Test func aChangedMigrationIsAnErrorNamingItsVersion() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await runner(schema).migrate(pool)
                    var edited = Self.shipped
                    edited[1] = Migration(
                        version: 2, name: "add_name", sql: "ALTER TABLE accounts ADD COLUMN nick text;")
                    await #expect(throws: MigrationError.checksumMismatch(version: 2, name: "add_name")) {
                        try await runner(schema, edited).migrate(pool)
                    }
                }
            }
        }

        @Test func aRecordedVersionTheBinaryDoesNotShipIsAnError() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await runner(schema).migrate(pool)
                    await #expect(throws: MigrationError.unknownRecordedVersion(version: 2, name: "add_name"))
                    {
                        try await runner(schema, [Self.shipped[0]]).migrate(pool)
                    }
                }
            }
        }

        @Test func aFailingMigrationLeavesNothingApplied() async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    let broken =
                        Self.shipped + [
                            Migration(version: 3, name: "broken", sql: "ALTER TABLE nowhere ADD x int;")
                        ]
                    await #expect(throws: PostgresError.self) {
                        try await runner(schema, broken).migrate(pool)
                    }
                    let tables = try await pool.query(
                        "SELECT count(*)::int8 FROM pg_tables WHERE schemaname = \(schema)")
                    #expect(try tables[0].decode(Int.self, column: 0) == 0)
                }
            }
        }

        @Test func concurrentRunnersTakeTurnsOnTheAdvisoryLock() async throws {
            try await TestDatabase.withPool(size: 4) { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    let runner = try runner(schema)
                    let applied = try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<4 { group.addTask { try await runner.migrate(pool).count } }
                        var total: [Int] = []
                        for try await count in group { total.append(count) }
                        return total.sorted()
                    }
                    #expect(applied == [0, 0, 0, 2])
                }
            }
        }

        @Test func aMissingSchemaOrABadListIsReportedPlainly() async throws {
            try await TestDatabase.withPool { pool in
                await #expect(throws: MigrationError.schemaMissing("no_such_schema_here")) {
                    try await MigrationRunner(schema: "no_such_schema_here", migrations: Self.shipped)
                        .migrate(pool)
                }
            }
            #expect(throws: MigrationError.invalidSchemaName("Bad-Name")) {
                try MigrationRunner(schema: "Bad-Name", migrations: [])
            }
            #expect(throws: MigrationError.invalidVersions("version 1 is used twice")) {
                try MigrationRunner(schema: "ok", migrations: [Self.shipped[0], Self.shipped[0]])
            }
        }
    }
}
