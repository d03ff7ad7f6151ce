import KindredPostgres

extension FamilyMigrations {
    /// Comments' texts are sealed (`CommentTexts`): new comments keep theirs only in `body_sealed`; older ones
    /// keep the plaintext until `kindred-family keys rotate-data` seals it.
    static let v29SealCommentTexts = Migration(
        version: 29, name: "seal_comment_texts",
        sql: """
            ALTER TABLE family.baby_comments
                ADD COLUMN body_sealed bytea,
                ALTER COLUMN body DROP NOT NULL;
            """)
}
