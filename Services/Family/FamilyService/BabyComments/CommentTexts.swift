import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// A comment's text as `family.baby_comments` keeps it: sealed under family's data keys (family migration 28),
/// bound to the comment. Comments from before sealing keep their plaintext until `kindred-family keys
/// rotate-data` seals it.
enum CommentTexts {
    /// A comment's key, which its text is bound to.
    struct Key: Sendable {
        let profile: BabyProfileID
        let comment: CommentID
    }

    /// The sealed texts.
    static func sealed(with cipher: FieldCipher) -> SealedText<Key> {
        SealedText(cipher: cipher) { "family.baby_comments.body/\($0.comment)" }
    }

    /// The column as `keys rotate-data` re-seals it.
    static func rotation(cipher: FieldCipher, on database: PostgresPool) -> any SealedColumn {
        SealedTextRotation(
            name: "comment texts", database: database, text: sealed(with: cipher),
            rows: { try await BabyCommentStore.texts(after: $0, limit: $1, on: $2) },
            reseal: { try await BabyCommentStore.reseal($0, was: $1, as: $2, in: $3) })
    }
}
