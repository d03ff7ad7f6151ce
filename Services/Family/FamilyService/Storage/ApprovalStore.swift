import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.approval_requests`: each function one statement. The table's SQL lives in the
/// `ApprovalStore*.swift` files and nowhere else; who guards whom is read through `GuardianLinkStore`.
enum ApprovalStore {
    /// The columns every statement returning requests selects, in the order `record(_:)` decodes them.
    enum Columns { case request }

    /// Request `id` as anyone may read it, and whether `viewer` (nil: a service, which guards nobody) is a
    /// guardian of its minor.
    static func approval(id: ApprovalID, viewer: UserID?, on pool: PostgresPool) async throws
        -> (record: ApprovalRecord, viewerGuards: Bool)?
    {
        let rows = try await pool.pureRead(
            """
            SELECT \(Columns.request),
                EXISTS (SELECT 1 FROM family.guardian_links g
                        WHERE g.minor_id = r.minor_id AND g.guardian_id = \(viewer)::uuid)
            FROM family.approval_requests r WHERE r.id = \(id)::uuid
            """)
        guard let row = rows.first else { return nil }
        return (try record(row), try row.decode(Bool.self, column: 9))
    }

    /// Up to `page.size + 1` requests, newest first, of `viewer` and of the minors they guard, so the caller
    /// can tell whether another page follows.
    static func list(for viewer: UserID, _ page: ApprovalPage, on pool: PostgresPool) async throws
        -> [ApprovalRecord]
    {
        // One page per minor from approval_requests_minor (minor_id, id DESC), then the newest of those: an
        // OR of the viewer and their minors could only filter the whole table read backwards by id.
        try await pool.pureRead(
            """
            SELECT \(Columns.request)
            FROM (SELECT \(viewer)::uuid
                  UNION SELECT g.minor_id FROM family.guardian_links g WHERE g.guardian_id = \(viewer)::uuid)
                AS m(minor_id)
            CROSS JOIN LATERAL (
                SELECT * FROM family.approval_requests r
                WHERE r.minor_id = m.minor_id
                  AND (\(page.state?.rawValue)::smallint IS NULL OR r.state = \(page.state?.rawValue)::smallint)
                  AND (\(page.before)::uuid IS NULL OR r.id < \(page.before)::uuid)
                ORDER BY r.id DESC
                LIMIT \(page.size + 1)) r
            ORDER BY r.id DESC
            LIMIT \(page.size + 1)
            """
        ).map(record)
    }

    /// A request from the first columns of `row` (`Columns.request`); a kind or state the table's CHECKs should
    /// have kept out is a decoding error naming the row.
    static func record(_ row: PostgresRow) throws -> ApprovalRecord {
        let id = try row.decode(ApprovalID.self, column: 0)
        guard let kind = ApprovalRecord.Kind(rawValue: try row.decode(Int.self, column: 2)),
            let state = ApprovalRecord.State(rawValue: try row.decode(Int.self, column: 5))
        else {
            throw PostgresError(
                kind: .decoding, message: "family.approval_requests row \(id) has an unknown kind or state")
        }
        return ApprovalRecord(
            id: id, minorID: try row.decode(UserID.self, column: 1), kind: kind,
            subjectID: try row.decode(String.self, column: 3),
            summary: try row.decode(String.self, column: 4),
            state: state, decidedBy: try row.decode(UserID?.self, column: 6),
            createdAt: try row.decode(Date.self, column: 7), decidedAt: try row.decode(Date?.self, column: 8))
    }
}

extension PostgresQuery.StringInterpolation {
    /// Writes the column list into the SQL: a constant of `ApprovalStore`, never anything from a request, so it
    /// is text, not a bind. The statements alias the table `r`.
    mutating func appendInterpolation(_ columns: ApprovalStore.Columns) {
        appendLiteral(
            """
            r.id::text, r.minor_id::text, r.kind, r.subject_id, r.summary, r.state, r.decided_by::text, \
            r.created_at, r.decided_at
            """)
    }
}
