import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `social.reports` and `social.report_tallies`, whose only writer this is, and the mark `social.events.filtered`
/// that the report reaching the threshold sets on an event.
enum ReportStore {
    /// Records `report` by `reporter` and answers how many different people have reported the content;
    /// `isNew` is false when the reporter had reported it before, and then nothing changed.
    ///
    /// Race-free in two statements at READ COMMITTED: of two retries by one person, the second's insert waits
    /// for the first's transaction and then does nothing, and its tally read, a statement of its own, sees
    /// what the first committed (one statement would read the tally as it was when it began). Of different
    /// people at once, each insert adds its own row and the tally's upsert takes the row lock in turn, so every
    /// report counts exactly once.
    static func record(_ report: ContentReport, by reporter: UserID, at now: Date, in tx: PostgresTransaction)
        async throws -> (reporters: Int, isNew: Bool)
    {
        let inserted = try await tx.query(
            """
            INSERT INTO social.reports (content_kind, content_id, reporter_id, reason, reported_at)
            VALUES (\(report.kind.rawValue)::smallint, \(report.contentID)::uuid, \(reporter)::uuid,
                    \(report.reason), \(now))
            ON CONFLICT (content_kind, content_id, reporter_id) DO NOTHING
            RETURNING 1
            """)
        if inserted.isEmpty {
            return (try await reporters(of: report, in: tx), false)
        }
        // The report that brings an event to the threshold marks it filtered in the same statement
        // (`EventSQL.reported` reads the mark); the tally's row lock orders concurrent reports.
        let tallied = try await tx.query(
            """
            WITH tallied AS (
                INSERT INTO social.report_tallies AS t (content_kind, content_id, reporters)
                VALUES (\(report.kind.rawValue)::smallint, \(report.contentID)::uuid, 1)
                ON CONFLICT (content_kind, content_id) DO UPDATE SET reporters = t.reporters + 1
                RETURNING reporters),
            filtered AS (
                UPDATE social.events e SET filtered = true
                FROM tallied
                WHERE \(report.kind == .event)::boolean AND e.id = \(report.contentID)::uuid
                    AND tallied.reporters >= \(ReportTally.filterThreshold)::integer AND NOT e.filtered)
            SELECT reporters FROM tallied
            """)
        return (try onlyCount(tallied), true)
    }

    /// The tally of content already reported: its first report wrote it in the same transaction.
    private static func reporters(of report: ContentReport, in tx: PostgresTransaction) async throws -> Int {
        try await onlyCount(
            tx.query(
                """
                SELECT reporters FROM social.report_tallies
                WHERE content_kind = \(report.kind.rawValue)::smallint AND content_id = \(report.contentID)::uuid
                """))
    }

    private static func onlyCount(_ rows: PostgresRows) throws -> Int {
        guard let row = rows.first else {
            throw PostgresError(
                kind: .decoding, message: "social.report_tallies: no tally for a recorded report")
        }
        return try row.decode(Int.self)
    }
}
