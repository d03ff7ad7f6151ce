import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of posting to the in-app inbox (`NotificationInbox.post` is how every part posts).
extension InboxStore {
    /// Inserts `notice` as notification `id` of `recipient`, its title and body as `text` (sealed,
    /// `NoticeText`), and queues its push messages as steps of `tx`, and wakes the recipient's streams once it
    /// commits; false when a notice with the same `dedupKey` was posted to them before.
    static func post(
        _ notice: Notice, text: [UInt8], id: NotificationID, to recipient: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        let kind = notice.kind.rawValue
        // One statement: the next number in the recipient's order (the counter row stays locked until the
        // commit, see migration 8), the notification, a push message per opted-in device.
        let posted = try await tx.query(
            """
            WITH counter AS (
                INSERT INTO family.notification_sequences AS s (recipient_id, last_seq)
                VALUES (\(recipient)::uuid, 1)
                ON CONFLICT (recipient_id) DO UPDATE SET last_seq = s.last_seq + 1
                RETURNING last_seq),
            posted AS (
                INSERT INTO family.notifications
                    (id, recipient_id, seq, kind, text_sealed, subject_user_id, dedup_key, created_at)
                SELECT \(id)::uuid, \(recipient)::uuid, last_seq, \(kind)::smallint, \(text)::bytea,
                    \(notice.subjectUserID)::uuid, \(notice.dedupKey), \(now)
                FROM counter
                ON CONFLICT (recipient_id, dedup_key) DO NOTHING
                RETURNING id),
            pushed AS (
                INSERT INTO family.push_outbox
                    (device_id, platform, device_token, recipient_id, notification_id, kind, text_sealed, created_at)
                SELECT d.id, d.platform, d.device_token, d.user_id, posted.id, \(kind)::smallint, \(text)::bytea,
                    \(now)
                FROM posted JOIN family.push_devices d ON d.user_id = \(recipient)::uuid AND d.push_enabled)
            SELECT id FROM posted
            """)
        if !posted.isEmpty { tx.announceAfterCommit([recipient.description], on: NotificationInbox.channel) }
        return !posted.isEmpty
    }
}
