internal import Synchronization
import FoundationEssentials
import KindredAuth
import KindredPostgres

/// What one sequencer transaction numbered.
struct SequencedEvents: Sendable {
    /// How many events it gave a cursor.
    let count: Int
    /// Those events in cursor order, their payloads opened; nil when one would not open (the feed's tail then
    /// reads them from the table, which reports the failure).
    let events: [OutboxEvent]?
}

/// The sequencer's SQL: the poll, and the transaction that numbers the waiting events and notifies the streams.
extension EventOutbox {
    /// The channel the sequencer notifies after numbering events; the payload is the newest cursor.
    var channel: String { name == "event_outbox" ? "\(schema)_events" : "\(schema)_\(name)" }

    /// True when committed events wait for a cursor: the sequencer's cheap poll.
    func hasUnsequencedEvents(_ pool: PostgresPool) async throws -> Bool {
        try await !pool.pureRead("SELECT 1 FROM \(table) WHERE cursor IS NULL LIMIT 1").isEmpty
    }

    /// Gives the oldest committed events without a cursor (up to `limit`) the next cursors, in append order,
    /// notifies the streams when it numbered any, and returns them. One sequencer at a time per outbox across
    /// every instance: the advisory lock is held until this transaction commits, and the next holder's
    /// statements see everything it committed. The lock and the numbering go with the COMMIT, so the whole
    /// transaction is one round trip; the numbering is a statement of its own, so its snapshot is taken once
    /// the lock is held.
    func sequence(_ pool: PostgresPool, limit: Int, opening cipher: FieldCipher) async throws
        -> SequencedEvents
    {
        let numbered = NumberedRows()
        try await pool.transaction { tx in
            tx.queryAtCommit("SELECT pg_advisory_xact_lock(\(lockKey))")
            tx.queryAtCommit(numbering(limit: limit)) { numbered.keep($0) }
        }
        let rows = try numbered.rows.decode((Int64, String, [UInt8], Date, String).self)
        let events = try? rows.map {
            OutboxEvent(
                cursor: $0, type: $1, payload: try open($2, type: $1, with: cipher), occurredAt: $3,
                traceparent: $4)
        }
        return SequencedEvents(count: rows.count, events: events)
    }

    /// The numbering: cursors `max(cursor)+1 …` to the oldest waiting rows by `id`, and one `pg_notify` with
    /// the newest cursor, only when it numbered rows (NOTIFY is delivered at the commit). `notified` is
    /// materialized (pg_notify is volatile), so it runs once, and joining it drops nothing when it has its row.
    private func numbering(limit: Int) -> PostgresQuery {
        """
        WITH numbered AS (
            UPDATE \(table) AS e SET cursor = head.last + batch.n, sequenced_at = now()
            FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM \(table)
                  WHERE cursor IS NULL ORDER BY id LIMIT \(limit)) AS batch,
                 (SELECT coalesce(max(cursor), 0) AS last FROM \(table)) AS head
            WHERE e.id = batch.id
            RETURNING e.cursor, e.type, e.payload, e.occurred_at, coalesce(e.traceparent, '') AS traceparent),
        notified AS (SELECT pg_notify(\(channel), max(cursor)::text) FROM numbered HAVING count(*) > 0)
        SELECT n.cursor, n.type, n.payload, n.occurred_at, n.traceparent FROM numbered AS n, notified
        ORDER BY n.cursor
        """
    }

    /// A stable 64-bit key for this outbox's sequencer lock (FNV-1a of a namespaced name).
    var lockKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let outbox = name == "event_outbox" ? schema : "\(schema).\(name)"
        for byte in "kindred.events.\(outbox)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}

/// The numbering's rows, handed over once the transaction committed.
private final class NumberedRows: Sendable {
    private let kept = Mutex<PostgresRows?>(nil)

    func keep(_ rows: PostgresRows) {
        kept.withLock { $0 = rows }
    }

    /// The rows kept; a committed transaction always answered its deferred statements.
    var rows: PostgresRows {
        get throws {
            guard let rows = kept.withLock({ $0 }) else {
                throw PostgresError(
                    kind: .connectionFailure, message: "the sequencer's numbering did not answer")
            }
            return rows
        }
    }
}
