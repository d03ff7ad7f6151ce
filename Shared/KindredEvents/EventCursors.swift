public import KindredPostgres

/// A consumer's cursors, `<schema>.event_cursors`: for each source it consumes, the cursor of the last
/// event it handled, updated in the handler's transaction.
public struct EventCursors: Sendable {
    let table: SchemaTable

    init(schema: String) {
        table = SchemaTable(schema: schema, table: "event_cursors")
    }

    /// The migration creating the consumer's cursor table in `schema`, for its migration list at `version`.
    public static func migration(schema: String, version: Int) -> Migration {
        Migration(
            version: version, name: "create_event_cursors",
            sql: """
                CREATE TABLE \(SchemaTable(schema: schema, table: "event_cursors").sql) (
                    source text PRIMARY KEY,
                    cursor bigint NOT NULL);
                """)
    }

    /// The stored cursor of `source`, recording 0 the first time.
    func start(_ source: String, _ pool: PostgresPool) async throws -> Int64 {
        try await pool.query(
            "INSERT INTO \(table) (source, cursor) VALUES (\(source), 0) ON CONFLICT DO NOTHING")
        return try await pool.pureRead("SELECT cursor FROM \(table) WHERE source = \(source)")[0]
            .decode(Int64.self, column: 0)
    }

    /// The stored cursor of `source`, locked until the transaction ends: another instance consuming the same
    /// source waits, then sees the event handled.
    func lock(_ source: String, in transaction: PostgresTransaction) async throws -> Int64 {
        try await transaction.query("SELECT cursor FROM \(table) WHERE source = \(source) FOR UPDATE")[0]
            .decode(Int64.self, column: 0)
    }

    /// Records `cursor` as handled for `source`, with the transaction's COMMIT (in its round trip: nothing in
    /// the transaction reads the cursor back, and it is locked since `lock`).
    func store(_ cursor: Int64, for source: String, in transaction: PostgresTransaction) {
        transaction.queryAtCommit("UPDATE \(table) SET cursor = \(cursor) WHERE source = \(source)")
    }
}
