import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of the in-app inbox's reads and of marking read (`family.notifications`); posting is in
/// `InboxStore+Posting.swift`. Lists and streams follow each recipient's `seq`, the order in which their
/// notifications committed: lists newest first, streams oldest first.
enum InboxStore {
    /// A notification with its position in its recipient's order.
    typealias Positioned = (seq: Int64, notification: Kindred_Family_V1_Notification)

    /// Up to `limit` of `recipient`'s notifications before position `before` (nil: the newest), newest first,
    /// their texts opened with `cipher`.
    static func page(
        of recipient: UserID, unreadOnly: Bool, before: Int64?, limit: Int, cipher: FieldCipher,
        on db: PostgresPool
    ) async throws -> [Positioned] {
        try await db.pureRead(
            """
            SELECT id::text, kind, title, body, coalesce(subject_user_id::text, ''), created_at, read_at, seq,
                text_sealed
            FROM family.notifications
            WHERE recipient_id = \(recipient)::uuid AND seq < coalesce(\(before), 9223372036854775807)
              AND (read_at IS NULL OR NOT \(unreadOnly))
            ORDER BY seq DESC LIMIT \(limit)
            """
        ).map { try positioned($0, cipher: cipher) }
    }

    /// How many of `recipient`'s notifications are unread.
    static func unreadCount(of recipient: UserID, on db: PostgresPool) async throws -> Int64 {
        try await db.pureRead(
            """
            SELECT count(*) FROM family.notifications WHERE recipient_id = \(recipient)::uuid AND read_at IS NULL
            """
        )[0].decode(Int64.self, column: 0)
    }

    /// Marks those of `ids` that are `recipient`'s and unread as read at `now`; returns how many stay unread.
    static func markRead(_ ids: [NotificationID], of recipient: UserID, at now: Date, on db: PostgresPool)
        async throws
        -> Int64
    {
        // The outer SELECT's snapshot does not see the UPDATE's effect: subtract what it marked.
        try await db.query(
            """
            WITH marked AS (
                UPDATE family.notifications SET read_at = \(now)
                WHERE recipient_id = \(recipient)::uuid AND id = ANY(\(PostgresArray(ids))::uuid[])
                  AND read_at IS NULL
                RETURNING 1)
            SELECT (SELECT count(*) FROM family.notifications
                    WHERE recipient_id = \(recipient)::uuid AND read_at IS NULL)
                 - (SELECT count(*) FROM marked)
            """
        )[0].decode(Int64.self, column: 0)
    }

    /// The position of the newest notification of each of `recipients` that has one: one index probe each
    /// (`notifications_inbox_order`), read backwards.
    static func heads(of recipients: [UserID], on db: PostgresPool) async throws -> [UserID: Int64] {
        let rows = try await db.pureRead(
            """
            SELECT r.id::text, n.seq
            FROM unnest(\(PostgresArray(recipients))::uuid[]) AS r(id)
            CROSS JOIN LATERAL (
                SELECT seq FROM family.notifications WHERE recipient_id = r.id ORDER BY seq DESC LIMIT 1) n
            """)
        var heads: [UserID: Int64] = [:]
        for row in rows {
            heads[try row.decode(UserID.self, column: 0)] = try row.decode(Int64.self, column: 1)
        }
        return heads
    }

    /// Where a stream starts in `recipient`'s order: after the notification `id`, or after the newest one
    /// created before it when `id` is not theirs; after everything already posted when `id` is nil.
    static func streamStart(of recipient: UserID, after id: NotificationID?, on db: PostgresPool) async throws
        -> Int64
    {
        guard let id else {
            return try await db.pureRead(
                "SELECT coalesce(max(seq), 0) FROM family.notifications WHERE recipient_id = \(recipient)::uuid"
            )[0].decode(Int64.self, column: 0)
        }
        return try await db.pureRead(
            """
            SELECT coalesce(
                (SELECT seq FROM family.notifications WHERE recipient_id = \(recipient)::uuid AND id = \(id)::uuid),
                (SELECT max(seq) FROM family.notifications
                 WHERE recipient_id = \(recipient)::uuid AND id < \(id)::uuid),
                0)
            """
        )[0].decode(Int64.self, column: 0)
    }

    /// For each recipient in `positions`, up to `limit` of their notifications after their `seq`, oldest first,
    /// their texts opened with `cipher`: one statement for every recipient whose `WatchNotifications` streams
    /// woke together (`RecipientBell`). A recipient without any is left out.
    static func notifications(
        after positions: [UserID: Int64], limit: Int, cipher: FieldCipher, on db: PostgresPool
    ) async throws -> [UserID: [Positioned]] {
        let (recipients, seqs) = (Array(positions.keys), Array(positions.values))
        let rows = try await db.pureRead(
            """
            SELECT n.id::text, n.kind, n.title, n.body, coalesce(n.subject_user_id::text, ''), n.created_at,
                n.read_at, n.seq, n.text_sealed, r.id::text
            FROM unnest(\(PostgresArray(recipients))::uuid[], \(PostgresArray(seqs))::int8[]) AS r(id, after)
            CROSS JOIN LATERAL (
                SELECT id, kind, title, body, subject_user_id, created_at, read_at, seq, text_sealed
                FROM family.notifications
                WHERE recipient_id = r.id AND seq > r.after
                ORDER BY seq LIMIT \(limit)) n
            """)
        var notifications: [UserID: [Positioned]] = [:]
        for row in rows {
            notifications[try row.decode(UserID.self, column: 9), default: []].append(
                try positioned(row, cipher: cipher))
        }
        // Each recipient's rows come in seq order from their LATERAL scan; sorted again, as SQL promises no
        // order without ORDER BY.
        return notifications.mapValues { $0.sorted { $0.seq < $1.seq } }
    }

    /// A notification and its position from the columns of the selects above.
    private static func positioned(_ row: PostgresRow, cipher: FieldCipher) throws -> Positioned {
        let kind = try row.decode(Int.self, column: 1)
        let stored = NoticeText.stored(
            title: try row.decode(String?.self, column: 2), body: try row.decode(String?.self, column: 3),
            sealed: try row.decode([UInt8]?.self, column: 8))
        let text = NoticeText.split(try NoticeText.sealed(with: cipher).open(stored, of: kind))
        let notification = Kindred_Family_V1_Notification(
            notificationID: try row.decode(String.self, column: 0),
            kind: Kindred_Family_V1_NotificationKind(rawValue: Int32(kind)),
            title: text.title, body: text.body,
            subjectUserID: try row.decode(String.self, column: 4),
            createdAt: try row.decode(Date.self, column: 5),
            readAt: try row.decode(Date?.self, column: 6))
        return (try row.decode(Int64.self, column: 7), notification)
    }
}
