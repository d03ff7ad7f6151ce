import KindredPostgres

/// What `keys rotate-data` reads and writes of the notices' texts (`NoticeText`): the rows of
/// `family.notifications` and of `family.push_outbox`, in id order, and the re-sealed text of one.
enum NoticeTextStore {
    /// One of the two tables a notice's text is stored in.
    enum Table: String, Sendable {
        case notifications = "notifications"
        case pushOutbox = "push_outbox"
    }

    /// Up to `limit` rows of `table` after `after` (nil: from the first), in id order.
    static func texts(in table: Table, after: NoticeRow?, limit: Int, on db: PostgresPool) async throws
        -> [(NoticeRow, StoredText)]
    {
        let rows =
            switch table {
            case .notifications:
                try await db.pureRead(
                    """
                    SELECT id::text, kind, title, body, text_sealed FROM family.notifications
                    WHERE id > coalesce(\(after?.id)::uuid, '00000000-0000-0000-0000-000000000000')
                    ORDER BY id LIMIT \(limit)
                    """)
            case .pushOutbox:
                try await db.pureRead(
                    """
                    SELECT id::text, kind, title, body, text_sealed FROM family.push_outbox
                    WHERE id > coalesce(\(after?.id)::bigint, 0) ORDER BY id LIMIT \(limit)
                    """)
            }
        return try rows.decode((String, Int, String?, String?, [UInt8]?).self).map {
            (NoticeRow(id: $0, kind: $1), NoticeText.stored(title: $2, body: $3, sealed: $4))
        }
    }

    /// Replaces the text of `row` in `table` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ row: NoticeRow, in table: Table, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        switch table {
        case .notifications:
            try await tx.query(
                """
                UPDATE family.notifications SET text_sealed = \(sealed)::bytea, title = NULL, body = NULL
                WHERE id = \(row.id)::uuid AND text_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
                """)
        case .pushOutbox:
            try await tx.query(
                """
                UPDATE family.push_outbox SET text_sealed = \(sealed)::bytea, title = NULL, body = NULL
                WHERE id = \(row.id)::bigint AND text_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
                """)
        }
    }
}
