import KindredPostgres
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct OutboxPruning {
        /// Seven events of which those up to `aged` were sequenced 40 days ago, pruned with a retention of 30
        /// days two cursors a statement: the old prefix goes (never the newest), in statements of at most two
        /// rows, each its own transaction; nothing old, no statement.
        @Test(
            arguments: [
                (aged: 7, left: [7], statements: [2, 2, 2]),
                (aged: 5, left: [6, 7], statements: [2, 2, 1]),
                (aged: 0, left: [1, 2, 3, 4, 5, 6, 7], statements: []),
            ] as [(aged: Int64, left: [Int64], statements: [Int64])])
        func aPruneDeletesTheOldPrefixABatchAStatementAndKeepsTheNewest(
            aged: Int64, left: [Int64], statements: [Int64]
        ) async throws {
            try await EventsFixture.with { fixture in
                try await fixture.appendSequenced(7)
                try await fixture.age(upTo: aged)
                try await fixture.logDeletes()

                let pruned = try await fixture.outbox.prune(
                    olderThan: .seconds(30 * 86_400), batch: 2, fixture.pool)

                #expect(pruned == Int(statements.reduce(0, +)))
                #expect(try await fixture.cursors() == left)
                let logged = try await fixture.loggedDeletes()
                #expect(logged.map(\.deleted) == statements)
                #expect(Set(logged.map(\.transaction)).count == statements.count)
            }
        }
    }
}

extension EventsFixture {
    /// Appends `count` events and gives them cursors 1 through `count`.
    fileprivate func appendSequenced(_ count: Int) async throws {
        for n in 1...count { try await append("\(n)") }
        try await sequenceAll()
    }

    /// Dates the events up to `cursor` as sequenced 40 days ago.
    fileprivate func age(upTo cursor: Int64) async throws {
        try await pool.query(
            "UPDATE \(outbox.table) SET sequenced_at = now() - interval '40 days' WHERE cursor <= \(cursor)")
    }

    /// The cursors left, in order.
    fileprivate func cursors() async throws -> [Int64] {
        try await pool.query("SELECT cursor FROM \(outbox.table) ORDER BY cursor").decode(Int64.self)
    }

    /// Records, for each DELETE statement on the outbox, its transaction and how many rows it deleted.
    fileprivate func logDeletes() async throws {
        for sql in [
            "CREATE TABLE \(schema).deletes (n serial, transaction bigint, deleted bigint)",
            """
            CREATE FUNCTION \(schema).log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO \(schema).deletes (transaction, deleted) SELECT txid_current(), count(*) FROM gone;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER log_delete AFTER DELETE ON \(outbox.table.sql) REFERENCING OLD TABLE AS gone
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).log_delete()
            """,
        ] {
            try await pool.query(PostgresQuery(unsafeSQL: sql))
        }
    }

    /// The DELETE statements logged, in order.
    fileprivate func loggedDeletes() async throws -> [(transaction: Int64, deleted: Int64)] {
        try await pool.query(
            PostgresQuery(unsafeSQL: "SELECT transaction, deleted FROM \(schema).deletes ORDER BY n")
        )
        .decode((Int64, Int64).self).map { ($0, $1) }
    }
}
