@testable import FamilyService
import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import ServiceTestSupport

/// The notification rules over a test database, without servers: a family context whose clock stands still
/// at `now` and whose identity is never reached (rules that need identity are tested on the test stack).
struct NoticeDesk {
    let pool: PostgresPool
    let context: FamilyContext

    init(_ pool: PostgresPool, now: Date = Date()) throws {
        self.pool = pool
        let nowhere = "127.0.0.1:1"
        context = FamilyContext(
            database: pool, clock: WallClock { now }, mail: FamilyTestStack.mail,
            identity: try IdentityDirectory(
                target: nowhere,
                credentials: try ServiceCredentials(
                    clientID: "family", clientSecret: "unused", identityTarget: nowhere)),
            pinHasher: PasswordHasher(cost: .testsOnly, concurrency: 1), logger: FamilyTestDatabase.logger,
            cipher: TestDataKeys.cipher)
    }

    /// A fresh user id.
    static func user() -> UserID { .generate(at: Date()) }

    /// The instant of the last post of this process, so that the next comes 2 ms or more after it.
    private static let lastPost = Locked(Date.distantPast)

    /// Now, or 2 ms after the last post if that is later (a whole millisecond apart whatever the rounding):
    /// posts' ids (UUIDv7) then sort in the order they were made, with no wait between them.
    static func nextPostInstant() -> Date {
        lastPost.withLock { last in
            last = max(Date(), last.addingTimeInterval(0.002))
            return last
        }
    }

    /// Posts `count` notices to `recipient`, one transaction each, 2 ms apart; their ids, oldest first.
    @discardableResult
    func post(
        _ count: Int, to recipient: UserID, kind: Kindred_Family_V1_NotificationKind = .approvalRequested
    )
        async throws -> [String]
    {
        var ids: [String] = []
        for index in 0..<count {
            let notice = Notice(kind: kind, title: "Notice \(index)", body: "Body \(index)")
            let instant = Self.nextPostInstant()
            _ = try await pool.transaction { tx in
                try await NotificationInbox.post(
                    notice, to: recipient, at: instant, sealedWith: TestDataKeys.cipher, in: tx)
            }
            ids.append(try await newestID(of: recipient))
        }
        return ids
    }

    /// The id of `recipient`'s newest notification.
    func newestID(of recipient: UserID) async throws -> String {
        try await pool.query(
            """
            SELECT id::text FROM family.notifications WHERE recipient_id = \(recipient)::uuid ORDER BY seq DESC LIMIT 1
            """)[0].decode(String.self, column: 0)
    }

    /// What family's mail outbox holds.
    var mailbox: TestMailbox { TestMailbox(pool, schema: "family") }

    /// A number `sql` counts.
    func count(_ sql: PostgresQuery) async throws -> Int {
        try await pool.query(sql)[0].decode(Int.self, column: 0)
    }

    /// Links `guardian` to `minor`, as an accepted invitation does.
    func link(guardian: UserID, to minor: UserID) async throws {
        try await pool.query(
            """
            INSERT INTO family.guardian_links (id, minor_id, guardian_id, created_at)
            VALUES (\(UUIDv7.generate(at: Date()))::uuid, \(minor)::uuid, \(guardian)::uuid, now())
            """)
    }
}

extension FamilyContext {
    /// This context as another instance of the service has it: the same database through a pool of its own.
    func onAnotherInstance(_ pool: PostgresPool) -> FamilyContext {
        FamilyContext(
            database: pool, clock: clock, mail: mail, identity: identity, pinHasher: pinHasher,
            logger: logger,
            cipher: cipher)
    }
}
