import KindredHandlers
import KindredPostgres

/// The guardian approvals the events part keeps, family's request id and the state social last learned:
/// `social.event_join_approvals` for a minor's join of an event, `social.media_view_approvals` for a minor's
/// view of a flagged media item. Each function is one statement on either table.
enum EventApprovalStore {
    /// What the events part asks a guardian for: the table and the subject's column.
    enum Subject {
        case join(eventID: EventID)
        case mediaView(mediaID: MediaID)
    }

    /// `minorID`'s approval for `subject`; nil when they never asked.
    static func approval(of minorID: UserID, for subject: Subject, on db: some StatementRunner) async throws
        -> StoredApproval?
    {
        let rows =
            switch subject {
            case .join(let eventID):
                try await db.pureRead(
                    """
                    SELECT approval_id::text, state FROM social.event_join_approvals
                    WHERE minor_id = \(minorID)::uuid AND event_id = \(eventID)::uuid
                    """)
            case .mediaView(let mediaID):
                try await db.pureRead(
                    """
                    SELECT approval_id::text, state FROM social.media_view_approvals
                    WHERE minor_id = \(minorID)::uuid AND media_id = \(mediaID)::uuid
                    """)
            }
        return try rows.first.flatMap { row in
            let (id, state) = try row.decode((ApprovalID, Int).self)
            return ApprovalState(rawValue: state).map { StoredApproval(id: id, state: $0) }
        }
    }

    /// Keeps pending request `approvalID` as `minorID`'s for `subject`, in place of any earlier one.
    static func keepPending(
        _ approvalID: ApprovalID, of minorID: UserID, for subject: Subject, on db: some StatementRunner
    )
        async throws
    {
        switch subject {
        case .join(let eventID):
            try await db.query(
                """
                INSERT INTO social.event_join_approvals (minor_id, event_id, approval_id, state)
                VALUES (\(minorID)::uuid, \(eventID)::uuid, \(approvalID)::uuid, 1)
                ON CONFLICT (minor_id, event_id) DO UPDATE SET approval_id = excluded.approval_id, state = 1
                """)
        case .mediaView(let mediaID):
            try await db.query(
                """
                INSERT INTO social.media_view_approvals (minor_id, media_id, approval_id, state)
                VALUES (\(minorID)::uuid, \(mediaID)::uuid, \(approvalID)::uuid, 1)
                ON CONFLICT (minor_id, media_id) DO UPDATE SET approval_id = excluded.approval_id, state = 1
                """)
        }
    }

    /// Records family's decision on request `approval.id`, if it is still the one kept for `subject` (a newer
    /// request asked meanwhile stays).
    static func record(
        _ approval: StoredApproval, of minorID: UserID, for subject: Subject, on db: some StatementRunner
    )
        async throws
    {
        switch subject {
        case .join(let eventID):
            try await db.query(
                """
                UPDATE social.event_join_approvals SET state = \(approval.state.rawValue)::smallint
                WHERE minor_id = \(minorID)::uuid AND event_id = \(eventID)::uuid
                  AND approval_id = \(approval.id)::uuid
                """)
        case .mediaView(let mediaID):
            try await db.query(
                """
                UPDATE social.media_view_approvals SET state = \(approval.state.rawValue)::smallint
                WHERE minor_id = \(minorID)::uuid AND media_id = \(mediaID)::uuid
                  AND approval_id = \(approval.id)::uuid
                """)
        }
    }
}
