public import KindredPostgres

/// The `traceparent` column of a service's outboxes: the trace of the work that appended each event (NULL
/// when it ran outside one), which `WatchEvents` hands on and the consumer continues. Every outbox was created
/// before events carried a trace, so each service adds the column with this migration:
///
/// ```swift
/// OutboxTraceparent(FamilyEvents.outbox, BabyActivityFeed.outbox).migration(version: 23),
/// ```
public struct OutboxTraceparent: Sendable {
    let outboxes: [EventOutbox]

    /// The column of each of `outboxes`, all in one service's schema.
    public init(_ outboxes: EventOutbox...) {
        self.outboxes = outboxes
    }

    /// The migration adding the column: put it in the service's list at `version`. Nullable with no default,
    /// so PostgreSQL adds it without rewriting or scanning the table; events appended before it stay NULL.
    public func migration(version: Int) -> Migration {
        let statements = outboxes.map { "ALTER TABLE \($0.table.sql) ADD COLUMN traceparent text;" }
        return Migration(
            version: version, name: "add_outbox_traceparent", sql: statements.joined(separator: "\n"))
    }
}
