public import KindredPostgres

/// A service's transactional outbox: the `<schema>.event_outbox` table. Events are appended in the same
/// transaction as the change they describe, without a cursor; an `EventFeed` gives them cursors once they
/// are committed and serves them.
public struct EventOutbox: Sendable {
    /// The writing service's own schema.
    public let schema: String
    let table: SchemaTable

    /// The outbox in `schema`, a plain lowercase identifier (a constant of the service; anything else traps).
    public init(schema: String) {
        self.schema = schema
        self.table = SchemaTable(schema: schema, table: "event_outbox")
    }

    /// The migration creating the outbox in `schema`: put it in the service's migration list at `version`.
    public static func migration(schema: String, version: Int) -> Migration {
        let table = SchemaTable(schema: schema, table: "event_outbox").sql
        // cursor stays NULL until the sequencer numbers the committed row; its unique index also finds the
        // rows still waiting (IS NULL), so a writer's insert maintains only two indexes.
        return Migration(
            version: version, name: "create_event_outbox",
            sql: """
                CREATE TABLE \(table) (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    cursor bigint UNIQUE,
                    type text NOT NULL,
                    payload bytea NOT NULL,
                    occurred_at timestamptz NOT NULL DEFAULT now(),
                    sequenced_at timestamptz);
                CREATE INDEX event_outbox_sequenced_at ON \(table) (sequenced_at) WHERE cursor IS NOT NULL;
                """)
    }

    /// Appends an event inside the service's transaction: it becomes visible (and gets its cursor) only
    /// if that transaction commits. `payload` is the service's serialized event; `type` names it.
    public func append(type: String, payload: [UInt8], in transaction: PostgresTransaction) async throws {
        try await transaction.query("INSERT INTO \(table) (type, payload) VALUES (\(type), \(payload))")
    }
}
