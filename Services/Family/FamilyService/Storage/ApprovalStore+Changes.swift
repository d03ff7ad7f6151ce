import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The statements of creating and deciding requests, each a step of the caller's transaction.
extension ApprovalStore {
    /// Inserts `ask` as pending request `id`, or returns the request already pending for the same minor, kind
    /// and subject; `created` tells which. Race-free: the partial unique index picks one request whatever the
    /// number of callers, and the conflicting row is locked and returned, so the answer is always a pending
    /// request (a row decided meanwhile no longer conflicts, and PostgreSQL retries the insert).
    static func insertPending(_ ask: ApprovalAsk, id: ApprovalID, at now: Date, in tx: PostgresTransaction)
        async throws -> (record: ApprovalRecord, created: Bool)
    {
        // state = 1 (pending) is written out, not bound: ON CONFLICT names the partial index by its predicate.
        let rows = try await tx.query(
            """
            INSERT INTO family.approval_requests AS r (id, minor_id, kind, subject_id, summary, state, created_at)
            VALUES (\(id)::uuid, \(ask.minorID)::uuid, \(ask.kind.rawValue)::smallint, \(ask.subjectID),
                    \(ask.summary), 1, \(now))
            ON CONFLICT (minor_id, kind, subject_id) WHERE state = 1 DO UPDATE SET state = r.state
            RETURNING \(Columns.request)
            """)
        let record = try onlyRecord(rows)
        return (record, record.id == id)
    }

    /// Request `id`, locked until `tx` ends: of two guardians deciding at once, the second reads the first's
    /// decision.
    static func lockedApproval(id: ApprovalID, in tx: PostgresTransaction) async throws -> ApprovalRecord? {
        try await tx.query(
            "SELECT \(Columns.request) FROM family.approval_requests r WHERE r.id = \(id)::uuid FOR UPDATE"
        ).first.map(record)
    }

    /// Records the decision on pending request `id`.
    static func decide(
        _ id: ApprovalID, _ state: ApprovalRecord.State, by guardianID: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> ApprovalRecord {
        let rows = try await tx.query(
            """
            UPDATE family.approval_requests r
            SET state = \(state.rawValue)::smallint, decided_by = \(guardianID)::uuid, decided_at = \(now)
            WHERE r.id = \(id)::uuid
            RETURNING \(Columns.request)
            """)
        return try onlyRecord(rows)
    }

    /// The one request a statement that always returns a row returned.
    private static func onlyRecord(_ rows: PostgresRows) throws -> ApprovalRecord {
        guard let row = rows.first else {
            throw PostgresError(
                kind: .decoding, message: "family.approval_requests: the statement returned no row")
        }
        return try record(row)
    }
}
