import FoundationEssentials
import KindredAuth
import KindredPostgres

/// The outbox's SQL for reading pages and pruning (sequencing: `EventOutbox+Sequencing.swift`).
extension EventOutbox {
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
}
