import KindredHandlers
import KindredPostgres

/// What adding a comment found: the comment written earlier under the same request id, the comment just
/// written, or no target to write it on.
enum CommentAdding {
    case earlier(StoredComment)
    case inserted(StoredComment)
    case targetMissing
}

/// A comment's write and the reads that guard it, as one statement.
extension BabyCommentStore {
    /// Holds `comment`'s author's membership of the profile and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`), then writes `comment` unless its author already wrote one on the profile
    /// under `requestID` (then answers that one, whatever its target now) or its target is gone; the target,
    /// when the comment is written, is held until `tx` ends so that it is not deleted under the new comment (an
    /// event `FOR SHARE`, as changing it takes; a photo or the announcement `FOR KEY SHARE`). One statement: the
    /// membership, the retry lookup, the hold and the insert. Nil when the author is not a member of the
    /// (active) profile: nothing is written then.
    static func add(
        _ comment: StoredComment, requestID: String, texts: SealedText<CommentTexts.Key>, seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, adding: CommentAdding)? {
        let target = comment.target
        let sealed = texts.seal(
            comment.text, of: CommentTexts.Key(profile: target.profile, comment: comment.id))
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(comment.author, of: target.profile))),
            earlier AS (
                SELECT comment_id, profile_id, target_kind, target_id, author_id, body, created_at, body_sealed
                FROM family.baby_comments
                WHERE profile_id = \(target.profile)::uuid AND author_id = \(comment.author)::uuid
                  AND request_id = \(requestID)),
            target AS (\(hold(target))),
            inserted AS (
                INSERT INTO family.baby_comments
                    (profile_id, comment_id, target_kind, target_id, author_id, body_sealed, request_id, created_at)
                SELECT \(target.profile)::uuid, \(comment.id)::uuid, \(target.kind.rawValue)::smallint,
                    \(target.id.uuidString)::uuid, \(comment.author)::uuid, \(sealed)::bytea, \(requestID),
                    \(comment.createdAt)
                WHERE EXISTS (SELECT FROM author) AND NOT EXISTS (SELECT FROM earlier)
                  AND EXISTS (SELECT FROM target)
                RETURNING comment_id, profile_id, target_kind, target_id, author_id, body, created_at, body_sealed)
            SELECT author.*, written.* FROM author
            LEFT JOIN (SELECT *, true FROM earlier UNION ALL SELECT *, false FROM inserted) AS written ON true
            """)
        guard let row = rows.first,
            let author = try BabyActivityStore.author(row, of: target.profile, seals: seals)
        else { return nil }
        // The comment's columns follow the author's thirteen; its flag says whether it is the earlier one.
        guard let isEarlier = try row.decode(Bool?.self, column: 21) else { return (author, .targetMissing) }
        let stored = try Self.comment(row, from: 13, texts: texts) ?? comment
        return (author, isEarlier ? .earlier(stored) : .inserted(stored))
    }

    /// The SELECT that holds `target` while a comment is written on it.
    private static func hold(_ target: CommentTarget) -> PostgresQuery {
        switch target.kind {
        case .calendarEvent:
            """
            SELECT FROM family.calendar_events
            WHERE profile_id = \(target.profile)::uuid AND event_id = \(target.id.uuidString)::uuid FOR SHARE
            """
        case .photo:
            """
            SELECT FROM family.baby_photos
            WHERE profile_id = \(target.profile)::uuid AND photo_id = \(target.id.uuidString)::uuid FOR KEY SHARE
            """
        case .announcement:
            "SELECT FROM family.baby_arrivals WHERE profile_id = \(target.profile)::uuid FOR KEY SHARE"
        }
    }
}
