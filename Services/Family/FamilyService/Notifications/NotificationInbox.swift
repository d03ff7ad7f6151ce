import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// One notification to post to somebody's in-app inbox.
struct Notice: Sendable {
    let kind: Kindred_Family_V1_NotificationKind
    let title: String
    let body: String
    /// The user the notice is about (the minor, for a guardian's alert); nil when it is the recipient.
    var subjectUserID: String? = nil
    /// Names the notice after what caused it (`"came_of_age"`, an event's cursor), so that a handler seeing
    /// the same event again posts nothing twice.
    var dedupKey: String? = nil
}

/// Posting to the in-app inbox, from any part of the service, inside the transaction of the change the
/// notice reports: it appears only if the change commits. A post also queues a push message for each of the
/// recipient's devices that opted in (`family.push_outbox`), and wakes the recipient's `WatchNotifications`
/// streams in every instance.
enum NotificationInbox {
    /// The channel a committed post wakes, with the recipient's id as payload.
    static let channel = "family_notifications"

    /// Posts `notice` to `recipient`; false when a notice with the same `dedupKey` was posted to them before.
    @discardableResult
    static func post(
        _ notice: Notice, to recipient: String, at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        let id = UUIDv7.generate(at: now)
        let kind = notice.kind.rawValue
        // One statement: the next number in the recipient's order (the counter row stays locked until the
        // commit, see migration 8), the notification, a push message per opted-in device, the wake-up.
        let posted = try await tx.query(
            """
            WITH counter AS (
                INSERT INTO family.notification_sequences AS s (recipient_id, last_seq)
                VALUES (\(recipient)::uuid, 1)
                ON CONFLICT (recipient_id) DO UPDATE SET last_seq = s.last_seq + 1
                RETURNING last_seq),
            posted AS (
                INSERT INTO family.notifications
                    (id, recipient_id, seq, kind, title, body, subject_user_id, dedup_key, created_at)
                SELECT \(id)::uuid, \(recipient)::uuid, last_seq, \(kind)::smallint, \(notice.title),
                    \(notice.body), \(notice.subjectUserID)::uuid, \(notice.dedupKey), \(now)
                FROM counter
                ON CONFLICT (recipient_id, dedup_key) DO NOTHING
                RETURNING id),
            pushed AS (
                INSERT INTO family.push_outbox
                    (device_id, platform, device_token, recipient_id, notification_id, kind, title, body, created_at)
                SELECT d.id, d.platform, d.device_token, d.user_id, posted.id, \(kind)::smallint, \(notice.title),
                    \(notice.body), \(now)
                FROM posted JOIN family.push_devices d ON d.user_id = \(recipient)::uuid AND d.push_enabled)
            SELECT pg_notify(\(channel), \(recipient)) FROM posted
            """)
        return !posted.isEmpty
    }
}
