import KindredPostgres
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct OutboxPruning {
        @Test func aPruneOfMoreThanABatchDeletesThemAllInShortStatementsAndKeepsTheNewest() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.appendSequenced(7)
                try await fixture.age(upTo: 7)
                try await fixture.logDeletes()

                #expect(
                    try await fixture.outbox.prune(olderThan: .seconds(30 * 86_400), batch: 2, fixture.pool)
                        == 6)
                #expect(try await fixture.cursors() == [7])
                let statements = try await fixture.loggedDeletes()
                #expect(statements.map(\.deleted) == [2, 2, 2])
                #expect(Set(statements.map(\.transaction)).count == 3)
            }
        }

        @Test func aPruneDeletesOnlyThePrefixSequencedBeforeTheRetention() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.appendSequenced(7)
                try await fixture.age(upTo: 5)
                try await fixture.logDeletes()

                #expect(
                    try await fixture.outbox.prune(olderThan: .seconds(30 * 86_400), batch: 2, fixture.pool)
                        == 5)
                #expect(try await fixture.cursors() == [6, 7])
                #expect(try await fixture.loggedDeletes().map(\.deleted) == [2, 2, 1])
            }
        }

        @Test func aPruneWhileNothingIsOldDeletesNothing() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.appendSequenced(3)
                try await fixture.logDeletes()

                #expect(
                    try await fixture.outbox.prune(olderThan: .seconds(30 * 86_400), batch: 2, fixture.pool)
                        == 0)
                #expect(try await fixture.cursors() == [1, 2, 3])
                #expect(try await fixture.loggedDeletes().isEmpty)
            }
        }
    }
}

extension EventsFixture {
    /// Appends `count` events and gives them cursors 1 through `count`.
    fileprivate func appendSequenced(_ count: Int) async throws {
        for n in 1...count { try await append("\(n)") }
        while try await outbox.sequence(pool, limit: 100) > 0 {}
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
