import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the comments' texts (`CommentTexts`).
extension BabyCommentStore {
    /// Up to `limit` comments after `after` (nil: from the first), in key order, with their stored texts.
    static func texts(after: CommentTexts.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(CommentTexts.Key, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT profile_id, comment_id, body, body_sealed FROM family.baby_comments
            WHERE (profile_id, comment_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.comment)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, comment_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, CommentID, String?, [UInt8]?).self).map {
            (CommentTexts.Key(profile: $0, comment: $1), StoredText(plain: $3 == nil ? $2 : nil, sealed: $3))
        }
    }

    /// Replaces the text of `key` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ key: CommentTexts.Key, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.baby_comments SET body_sealed = \(sealed)::bytea, body = NULL
            WHERE profile_id = \(key.profile)::uuid AND comment_id = \(key.comment)::uuid
              AND body_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
