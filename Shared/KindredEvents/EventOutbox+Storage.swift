import FoundationEssentials
import KindredAuth
import KindredPostgres

/// The outbox's SQL: sequencing, reading pages, pruning.
extension EventOutbox {
    /// The channel the sequencer notifies after numbering events; the payload is the newest cursor.
    var channel: String { name == "event_outbox" ? "\(schema)_events" : "\(schema)_\(name)" }

    /// True when committed events wait for a cursor: the sequencer's cheap poll.
    func hasUnsequencedEvents(_ pool: PostgresPool) async throws -> Bool {
        try await !pool.pureRead("SELECT 1 FROM \(table) WHERE cursor IS NULL LIMIT 1").isEmpty
    }

    /// Gives the oldest committed events without a cursor (up to `limit`) the next cursors, in append order,
    /// and notifies the streams; returns how many it numbered. One sequencer at a
    /// time per outbox across every instance: the advisory lock is held until this transaction commits,
    /// and the next holder's statements see everything it committed.
    func sequence(_ pool: PostgresPool, limit: Int) async throws -> Int {
        try await pool.transaction { tx in
            try await tx.query("SELECT pg_advisory_xact_lock(\(lockKey))")
            let cursors = try await tx.query(
                """
                UPDATE \(table) AS e SET cursor = head.last + batch.n, sequenced_at = now()
                FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM \(table)
                      WHERE cursor IS NULL ORDER BY id LIMIT \(limit)) AS batch,
                     (SELECT coalesce(max(cursor), 0) AS last FROM \(table)) AS head
                WHERE e.id = batch.id
                RETURNING e.cursor
                """
            ).decode(Int64.self)
            guard let newest = cursors.max() else { return 0 }
            try await tx.query("SELECT pg_notify(\(channel), \(String(newest)))")
            return cursors.count
        }
    }

    /// Up to `limit` sequenced events after `cursor`, in cursor order, their payloads opened with `cipher`.
    func events(after cursor: Int64, limit: Int, opening cipher: FieldCipher, _ pool: PostgresPool)
        async throws
        -> [OutboxEvent]
    {
        try await pool.pureRead(
            """
            SELECT cursor, type, payload, occurred_at, coalesce(traceparent, '') FROM \(table)
            WHERE cursor > \(cursor) ORDER BY cursor LIMIT \(limit)
            """
        ).decode((Int64, String, [UInt8], Date, String).self).map {
            OutboxEvent(
                cursor: $0, type: $1, payload: try self.open($2, type: $1, with: cipher), occurredAt: $3,
                traceparent: $4)
        }
    }

    /// The newest cursor given, 0 before the first.
    func newestCursor(_ pool: PostgresPool) async throws -> Int64 {
        try await pool.pureRead("SELECT coalesce(max(cursor), 0) FROM \(table)")[0].decode(Int64.self)
    }

    /// Cursors deleted per pruning statement (each its own transaction, about 2 ms on the seeded database), so
    /// that a prune never holds its locks or competes with the calls for long, however much it has to delete.
    static let pruneBatch: Int64 = 2_000

    /// Deletes the events sequenced longer than `retention` ago, as a prefix of the cursors so that a stream
    /// can tell a pruned gap, and never the newest one, so that cursors keep increasing. The prefix is fixed
    /// first (up to the last event sequenced before the cutoff, found through the `sequenced_at` index), then
    /// deleted from its oldest cursor up, `batch` cursors a statement: a stream that reads meanwhile sees a
    /// shorter prefix gone, never a hole.
    @discardableResult
    func prune(olderThan retention: Duration, batch: Int64 = pruneBatch, _ pool: PostgresPool) async throws
        -> Int
    {
        let seconds = Double(retention.components.seconds)
        // Not max(cursor) WHERE sequenced_at < cutoff: the planner reads the cursor index backwards and
        // filters every younger row, the whole table when nothing is old (2 s on the seeded activity feed).
        let bounds = try await pool.pureRead(
            """
            SELECT (SELECT min(cursor) FROM \(table)),
                (SELECT max(cursor) FROM \(table) WHERE cursor IS NOT NULL AND sequenced_at = (
                    SELECT max(sequenced_at) FROM \(table)
                    WHERE cursor IS NOT NULL AND sequenced_at < now() - \(seconds) * interval '1 second')),
                (SELECT max(cursor) FROM \(table))
            """
        ).decode((Int64?, Int64?, Int64?).self)
        guard let row = bounds.first, let oldest = row.0, let old = row.1, let newest = row.2 else {
            return 0
        }
        let last = min(old, newest - 1)
        var pruned = 0
        for first in stride(from: oldest, through: last, by: Int(batch)) {
            try Task.checkCancellation()
            pruned += try await pool.query(
                "DELETE FROM \(table) WHERE cursor BETWEEN \(first) AND \(min(first + batch - 1, last))"
            ).affectedRows
        }
        return pruned
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
