import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A comment as members read it.
struct StoredComment: Sendable, Equatable {
    let id: CommentID
    let target: CommentTarget
    let author: UserID
    let text: String
    let createdAt: Date

    /// The comment as the wire carries it.
    var proto: Kindred_Family_V1_Comment {
        Kindred_Family_V1_Comment(
            commentID: id.description, target: target.proto, authorUserID: author.description, text: text,
            createdAt: createdAt)
    }
}
