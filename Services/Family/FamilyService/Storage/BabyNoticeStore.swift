import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of a baby profile's notices: one post to many members in one statement.
enum BabyNoticeStore {
    /// Posts `notice` to every member of `profile` in `audience` but `actor` who has not switched its kind off,
    /// as `NotificationInbox.post` does for one recipient: each recipient's next `seq` (their counter rows
    /// locked in user id order until the commit), the notification (once per `dedupKey`) and a push message per
    /// opted-in device, in one statement whatever the number of members; the title and body go in as `text`,
    /// sealed once for all of them (`NoticeText`). The statement goes out with the COMMIT of `tx`, in its round
    /// trip (nothing in the transaction reads what it writes); the recipients it answers have their streams
    /// woken once the transaction committed (`announceAfterCommit`).
    static func post(
        _ notice: Notice, text: [UInt8], to audience: BabyAudience, of profile: BabyProfileID,
        except actor: UserID,
        dedupKey: String,
        at now: Date, in tx: PostgresTransaction
    ) {
        let posting = fanOut(
            notice, text: text, to: audience, of: profile, except: actor, dedupKey: dedupKey, at: now)
        tx.queryAtCommit("WITH \(posting) \(unsafeSQL: recipients)") { announce($0, in: tx) }
    }

    /// The fan-out `post` sends, as the CTEs `recipients`, `counter`, `posted` and `pushed` of a statement that
    /// ends with `recipients` (the text below) and hands its rows to `announce`: for a write that posts in a
    /// statement of its own (an activity entry's, `BabyActivityStore.record`).
    static func fanOut(
        _ notice: Notice, text: [UInt8], to audience: BabyAudience, of profile: BabyProfileID,
        except actor: UserID, dedupKey: String, at now: Date
    ) -> PostgresQuery {
        let kind = notice.kind.rawValue
        let role = audience.role?.rawValue
        // Ids are UUIDv7 of `now` made in SQL, one per recipient: the millisecond time, the version digit 7,
        // then a random UUID's last 19 hex digits (their variant bits included).
        return """
            recipients AS (
                SELECT m.user_id FROM family.baby_members m
                LEFT JOIN family.notification_settings s ON s.user_id = m.user_id
                WHERE m.profile_id = \(profile)::uuid AND (\(role)::smallint IS NULL OR m.role = \(role)::smallint)
                  AND m.user_id <> \(actor)::uuid
                  AND NOT coalesce(s.muted_kinds, '{}') @> ARRAY[\(kind)::smallint]),
            counter AS (
                INSERT INTO family.notification_sequences AS s (recipient_id, last_seq)
                SELECT user_id, 1 FROM recipients ORDER BY user_id
                ON CONFLICT (recipient_id) DO UPDATE SET last_seq = s.last_seq + 1
                RETURNING recipient_id, last_seq),
            posted AS (
                INSERT INTO family.notifications
                    (id, recipient_id, seq, kind, text_sealed, dedup_key, created_at)
                SELECT (lpad(to_hex(floor(extract(epoch FROM \(now)::timestamptz) * 1000)::bigint), 12, '0')
                        || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid,
                    recipient_id, last_seq, \(kind)::smallint, \(text)::bytea, \(dedupKey), \(now)
                FROM counter
                ON CONFLICT (recipient_id, dedup_key) DO NOTHING
                RETURNING id, recipient_id),
            pushed AS (
                INSERT INTO family.push_outbox
                    (device_id, platform, device_token, recipient_id, notification_id, kind, text_sealed, created_at)
                SELECT d.id, d.platform, d.device_token, d.user_id, posted.id, \(kind)::smallint, \(text)::bytea,
                    \(now)
                FROM posted JOIN family.push_devices d ON d.user_id = posted.recipient_id AND d.push_enabled)
            """
    }

    /// The end of a statement with `fanOut`'s CTEs: the recipients posted to, for `announce`.
    static let recipients = "SELECT recipient_id::text FROM posted"

    /// Wakes the streams of the recipients a fan-out answered, once `tx` has committed.
    static func announce(_ posted: PostgresRows, in tx: PostgresTransaction) {
        // recipient_id::text is never NULL: every row decodes.
        tx.announceAfterCommit(
            posted.compactMap { try? $0.decode(String.self) }, on: NotificationInbox.channel)
    }
}
