import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.baby_comments` (migration 13): the comments on a profile's events (and, with the gallery, its
/// photos and arrival announcement).
enum BabyCommentStore {
    /// The comment `author` wrote on `profile` under `requestID`, if any.
    static func written(
        by author: UserID, requestID: String, on profile: BabyProfileID, texts: SealedText<CommentTexts.Key>,
        on db: some StatementRunner
    ) async throws -> StoredComment? {
        try await db.query(
            """
            SELECT comment_id, profile_id, target_kind, target_id, author_id, body, created_at, body_sealed
            FROM family.baby_comments
            WHERE profile_id = \(profile)::uuid AND author_id = \(author)::uuid AND request_id = \(requestID)
            """
        ).first.flatMap { try comment($0, texts: texts) }
    }

    /// Up to `limit` comments on `target` after `after`, oldest first; their rows are `comment`'s. For a
    /// member's read, which checks membership in the same statement (`BabyMemberStore.readAsMember`).
    static func comments(on target: CommentTarget, after: CommentID?, limit: Int) -> PostgresQuery {
        """
        SELECT comment_id, profile_id, target_kind, target_id, author_id, body, created_at, body_sealed
        FROM family.baby_comments
        WHERE profile_id = \(target.profile)::uuid AND target_kind = \(target.kind.rawValue)::smallint
            AND target_id = \(target.id.uuidString)::uuid
            AND comment_id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
        ORDER BY comment_id
        LIMIT \(limit)
        """
    }

    /// The author of `comment`, its row locked until `tx` ends; nil when `profile` has no such comment.
    static func lockAuthor(of comment: CommentID, on profile: BabyProfileID, in tx: PostgresTransaction)
        async throws -> UserID?
    {
        try await tx.query(
            """
            SELECT author_id FROM family.baby_comments
            WHERE profile_id = \(profile)::uuid AND comment_id = \(comment)::uuid FOR UPDATE
            """
        ).first.map { try $0.decode(UserID.self, column: 0) }
    }

    static func delete(_ comment: CommentID, on profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            DELETE FROM family.baby_comments WHERE profile_id = \(profile)::uuid AND comment_id = \(comment)::uuid
            """)
    }

    /// A comment from the columns of the selects above (from column `first` on), its text opened with `texts`.
    static func comment(_ row: PostgresRow, from first: Int = 0, texts: SealedText<CommentTexts.Key>) throws
        -> StoredComment?
    {
        guard let kind = CommentTarget.Kind(rawValue: try row.decode(Int.self, column: first + 2)) else {
            return nil
        }
        let id = try row.decode(CommentID.self, column: first)
        let target = CommentTarget(
            profile: try row.decode(BabyProfileID.self, column: first + 1), kind: kind,
            id: try row.decode(CommentID.self, column: first + 3).uuid)
        let sealed = try row.decode([UInt8]?.self, column: first + 7)
        let text = try texts.open(
            StoredText(
                plain: sealed == nil ? try row.decode(String?.self, column: first + 5) : nil, sealed: sealed),
            of: CommentTexts.Key(profile: target.profile, comment: id))
        return StoredComment(
            id: id, target: target, author: try row.decode(UserID.self, column: first + 4), text: text,
            createdAt: try row.decode(Date.self, column: first + 6))
    }
}
