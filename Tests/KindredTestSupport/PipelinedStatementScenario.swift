public import KindredPostgres
import Testing

/// What `PostgresTransaction.query(_:)` with several statements promises, played on `pool` wherever its
/// transactions run (a loop's own connections, or the pool's threads): each statement's rows come back in
/// order; each is a statement of its own, so a later one sees an earlier one's write; one that fails makes the
/// call throw its error, the ones after it do not run and the transaction rolls back; an empty list runs
/// nothing. `table` (int8 primary key `id`) starts empty.
public enum PipelinedStatementScenario {
    public static func play(on pool: PostgresPool, table: String) async throws {
        let answers = try await pool.transaction { tx in
            try await tx.query([
                "INSERT INTO \(unsafeSQL: table) (id) VALUES (1), (2) RETURNING id",
                "SELECT count(*)::int8 FROM \(unsafeSQL: table)",
                "SELECT id FROM \(unsafeSQL: table) WHERE id > \(5)",
            ])
        }
        #expect(answers.count == 3)
        #expect(try answers[0].map { try $0.decode(Int.self, column: 0) }.sorted() == [1, 2])
        #expect(try answers[1][0].decode(Int.self, column: 0) == 2)
        #expect(answers[2].isEmpty)
        #expect(try await pool.transaction { tx in try await tx.query([]) }.isEmpty)
        // A collision in the middle: its error, nothing after it, nothing of the transaction kept.
        let error = await #expect(throws: PostgresError.self) {
            try await pool.transaction { tx in
                _ = try await tx.query([
                    "INSERT INTO \(unsafeSQL: table) (id) VALUES (3)",
                    "INSERT INTO \(unsafeSQL: table) (id) VALUES (1)",
                    "INSERT INTO \(unsafeSQL: table) (id) VALUES (4)",
                ])
            }
        }
        #expect(error?.isUniqueViolation == true)
        // The connection serves the next transaction.
        try await pool.transaction { tx in
            _ = try await tx.query(["INSERT INTO \(unsafeSQL: table) (id) VALUES (5)"])
        }
        let ids = try await pool.query("SELECT id FROM \(unsafeSQL: table) ORDER BY id").map {
            try $0.decode(Int.self)
        }
        #expect(ids == [1, 2, 5])
    }
}
