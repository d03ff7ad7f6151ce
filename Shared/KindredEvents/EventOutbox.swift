public import KindredAuth
public import KindredPostgres
import KindredMetrics

/// A service's transactional outbox: the `<schema>.event_outbox` table. Events are appended in the same
/// transaction as the change they describe, without a cursor; an `EventFeed` gives them cursors once they
/// are committed and serves them. A service may keep a second outbox under another table name for a feed of
/// its own (family's baby-profile activity): each has its own cursors, sequencer lock and channel.
public struct EventOutbox: Sendable {
    /// The writing service's own schema.
    public let schema: String
    /// The outbox table's name in `schema`.
    public let name: String
    let table: SchemaTable

    /// The outbox `name` in `schema`, both plain lowercase identifiers (constants of the service; anything else
    /// traps).
    public init(schema: String, name: String = "event_outbox") {
        precondition(
            SchemaTable.isPlainIdentifier(name), "outbox \"\(name)\" is not a plain lowercase identifier")
        self.schema = schema
        self.name = name
        self.table = SchemaTable(schema: schema, table: name)
    }

    /// The migration creating the outbox `name` in `schema`: put it in the service's migration list at
    /// `version`.
    public static func migration(schema: String, name: String = "event_outbox", version: Int) -> Migration {
        let outbox = EventOutbox(schema: schema, name: name)
        let table = outbox.table.sql
        // The traceparent column comes later, from `OutboxTraceparent`'s migration: every outbox predates it.
        // cursor stays NULL until the sequencer numbers the committed row; its unique index also finds the
        // rows still waiting (IS NULL), so a writer's insert maintains only two indexes.
        return Migration(
            version: version, name: "create_\(name)",
            sql: """
                CREATE TABLE \(table) (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    cursor bigint UNIQUE,
                    type text NOT NULL,
                    payload bytea NOT NULL,
                    occurred_at timestamptz NOT NULL DEFAULT now(),
                    sequenced_at timestamptz);
                CREATE INDEX \(name)_sequenced_at ON \(table) (sequenced_at) WHERE cursor IS NOT NULL;
                """)
    }

    /// Appends an event inside the service's transaction: it becomes visible (and gets its cursor) only
    /// if that transaction commits. `payload` is the service's serialized event, stored sealed under `cipher`
    /// (the service's data keys; the feed opens it); `type` names it. The event keeps the current trace
    /// (`writersTraceparent`), so that its consumers handle it inside that trace. The insert goes out with the
    /// COMMIT (`queryAtCommit`): nothing waits for it before.
    public func append(
        type: String, payload: [UInt8], sealedWith cipher: FieldCipher, in transaction: PostgresTransaction
    ) async throws {
        transaction.queryAtCommit(insert(type: type, payload: payload, sealedWith: cipher))
    }

    /// The INSERT that `append` sends, for a service that appends inside a statement of its own (a CTE of the
    /// write the event describes, `PostgresQuery.append(_:)`): the payload sealed and the trace kept the same
    /// way. The caller must run it in the transaction of the change, so that the event commits with it or not
    /// at all.
    public func insert(type: String, payload: [UInt8], sealedWith cipher: FieldCipher) -> PostgresQuery {
        """
        INSERT INTO \(table) (type, payload, traceparent)
        VALUES (\(type), \(seal(payload, type: type, with: cipher)), \(Self.writersTraceparent))
        """
    }

    /// What an event appended now stores as its `traceparent`: the current trace with the writer's span as
    /// the parent, nil outside a trace. For a service that inserts into its outbox in a statement of its own.
    public static var writersTraceparent: String? { TraceContext.current?.traceparent }
}
