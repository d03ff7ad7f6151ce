import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// Comments on a profile's events (and, with the gallery, its photos and arrival announcement): every member
/// adds and reads them; the author or an owner deletes one.
struct BabyComments: Sendable {
    /// The longest comment, in characters as a reader sees them.
    static let maximumLength = 1_000
    /// The start of a comment kept in the activity log.
    static let activityDetailLength = 100

    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    /// Opens the profile's sealed name for the notices the activity log posts.
    let seals: BabySeals

    /// Seals and opens the comments' texts, under the same data keys.
    var texts: SealedText<CommentTexts.Key> { CommentTexts.sealed(with: seals.cipher) }

    init(database: PostgresPool, clock: WallClock, seals: BabySeals) {
        self.database = database
        self.clock = clock
        self.seals = seals
        membership = BabyMembership(database: database)
    }

    /// Adds `author`'s comment; a retry under the same request_id (with the same target and text) returns the
    /// first comment. The owners are told through the activity log.
    func add(_ draft: CommentDraft, by author: UserID) async throws -> Kindred_Family_V1_Comment {
        let (requestID, target, text) = (draft.requestID, draft.target, draft.text)
        let now = clock.now
        let comment = StoredComment(
            id: .generate(at: now), target: target, author: author, text: text, createdAt: now)
        let stored = try await IdempotentCreate.run(
            {
                try await database.transaction { tx in
                    guard
                        let (holder, adding) = try await BabyCommentStore.add(
                            comment, requestID: requestID, texts: texts, seals: seals, in: tx)
                    else { throw FamilyError.babyProfileNotFound }
                    let stored: StoredComment
                    switch adding {
                    case .earlier(let earlier): return earlier
                    case .targetMissing: throw FamilyError.commentTargetNotFound
                    case .inserted(let inserted): stored = inserted
                    }
                    try await BabyActivityLog.record(
                        BabyActivityEntry(
                            profile: target.profile, kind: .commentAdded, actor: author,
                            subject: comment.id.uuid,
                            detail: String(text.prefix(Self.activityDetailLength))), names: holder.names,
                        at: now, seals: seals, in: tx)
                    return stored
                }
            },
            first: {
                try await BabyCommentStore.written(
                    by: author, requestID: requestID, on: target.profile, texts: texts, on: database)
            })
        guard stored.id != comment.id else { return stored.proto }
        return try IdempotentCreate.retried(stored, same: stored.target == target && stored.text == text)
            .proto
    }

    /// A page of the comments on a target, oldest first, for a member.
    func list(_ query: CommentQuery, readBy reader: UserID) async throws
        -> Kindred_Family_V1_ListCommentsResponse
    {
        let (target, page, texts) = (query.target, query.page, texts)
        // The target's check rides in the same round trip; a stranger's answer is decided first, by the page.
        async let exists = Self.targetExists(target, on: database)
        let comments = try await membership.scoped(
            reader, profile: target.profile, row: { try BabyCommentStore.comment($0, texts: texts) }
        ) { _ in BabyCommentStore.comments(on: target, after: page.after, limit: page.size + 1) }
        guard try await exists else { throw FamilyError.commentTargetNotFound }
        let (served, next) = page.served(comments.compactMap { $0 }) { [$0.id.description] }
        return Kindred_Family_V1_ListCommentsResponse(comments: served.map(\.proto), page: next)
    }

    /// Deletes a comment, for its author or an owner.
    func delete(_ commentID: CommentID, on profileID: BabyProfileID, by caller: UserID) async throws {
        try await database.transaction { tx in
            let role = try await BabyMembership.holdMember(caller, of: profileID, in: tx)
            guard let author = try await BabyCommentStore.lockAuthor(of: commentID, on: profileID, in: tx)
            else {
                throw FamilyError.commentNotFound
            }
            guard role == .owner || author == caller else { throw FamilyError.commentNotYours }
            try await BabyCommentStore.delete(commentID, on: profileID, in: tx)
        }
    }
}
