@testable import FamilyService
import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredEvents
import KindredPostgres
import KindredTestSupport
import Testing

/// Approvals over a test database, the people a test needs, and how their answers read.
struct ApprovalTest {
    let pool: PostgresPool
    let approvals: Approvals
    /// Moves one second on each reading, so that requests made one after the other are ordered by time.
    let instant = Locked(Date(timeIntervalSince1970: 1_781_000_000))

    init(_ pool: PostgresPool) {
        self.pool = pool
        let instant = instant
        approvals = Approvals(
            database: pool, cipher: TestDataKeys.cipher,
            clock: WallClock {
                instant.withLock {
                    $0 = $0.addingTimeInterval(1); return $0
                }
            })
    }

    /// Makes `guardian` a guardian of `minor`, as the guardian links part does.
    func link(_ guardian: Caller, to minor: Caller) async throws {
        try await Self.link(guardian: guardian.id.description, minor: minor.id.description, pool)
    }

    /// Makes user `guardian` a guardian of user `minor`, as the guardian links part does.
    static func link(guardian: String, minor: String, _ pool: PostgresPool) async throws {
        try await pool.query(
            """
            INSERT INTO family.guardian_links (id, minor_id, guardian_id, created_at)
            VALUES (\(UUIDv7.generate(at: Date()))::uuid, \(minor)::uuid, \(guardian)::uuid, now())
            """)
    }

    /// `minor` (or `caller`, for them) asks to join event `subject`.
    func ask(
        _ minor: Caller, subject: String = "event-1", kind: Kindred_Family_V1_ApprovalKind = .joinEvent,
        summary: String = "Join 'Beach cleanup' on 3 May", as caller: Caller? = nil
    ) async throws -> ApprovalRecord {
        try await approvals.create(
            try ApprovalAsk(
                Kindred_Family_V1_CreateApprovalRequestRequest(
                    minorUserID: minor.id.description, kind: kind, subjectID: subject, summary: summary)),
            as: caller ?? minor)
    }

    /// The notices in `user`'s inbox, oldest first: kind, title and dedup key.
    func inbox(_ user: Caller) async throws -> [(kind: Int, title: String, dedupKey: String?)] {
        try await pool.query(
            """
            SELECT kind, title, body, text_sealed, dedup_key FROM family.notifications
            WHERE recipient_id = \(user.id)::uuid ORDER BY id
            """
        ).map { row in
            let notice = try openedNotice(row)
            return (kind: notice.kind, title: notice.title, dedupKey: try row.decode(String?.self, column: 4))
        }
    }

    /// The events appended to the family outbox, in the order their transactions wrote them.
    func events() async throws -> [Kindred_Family_V1_Event] {
        try await FamilyEvents.outbox.appended(on: pool).map { type, payload in
            var event = try Kindred_Family_V1_Event(serializedBytes: payload)
            event.type = type
            return event
        }
    }
}
