import KindredPostgres

extension FamilyMigrations {
    /// Guardian approvals: what a minor asks their guardians to allow, and the decision.
    static let v7CreateApprovalRequests = Migration(
        version: 7, name: "create_approval_requests",
        sql: """
            -- Ids are UUIDv7, so a list reads newest first by id. kind and state hold the numbers of
            -- kindred.family.v1.ApprovalKind and ApprovalState.
            CREATE TABLE family.approval_requests (
                id uuid PRIMARY KEY,
                minor_id uuid NOT NULL,
                kind smallint NOT NULL CHECK (kind IN (1, 2)),
                subject_id text NOT NULL,
                summary text NOT NULL,
                state smallint NOT NULL CHECK (state IN (1, 2, 3)),
                decided_by uuid,
                created_at timestamptz NOT NULL,
                decided_at timestamptz,
                -- Pending (1) exactly while nobody has decided.
                CHECK ((state = 1) = (decided_by IS NULL) AND (decided_by IS NULL) = (decided_at IS NULL))
            );
            CREATE INDEX approval_requests_minor ON family.approval_requests (minor_id, id DESC);
            -- At most one pending request per minor, kind and subject: asking again while one waits returns it,
            -- however many instances ask at once.
            CREATE UNIQUE INDEX approval_requests_pending ON family.approval_requests (minor_id, kind, subject_id)
                WHERE state = 1;
            """)
}
