import KindredPostgres

extension SocialMigrations {
    /// Every message sent rewrites both rows of its conversation (the last message and when, which
    /// `conversations_recent` orders by, so never a HOT update), and each new row version went into every
    /// index of the table. `conversations_by_id` served only `MessageStore.mayRead`, which now finds the
    /// caller's row by its key: one index fewer to write twice per message.
    static let v13DropConversationsById = Migration(
        version: 13, name: "drop_conversations_by_id",
        sql: """
            DROP INDEX social.conversations_by_id;
            """)
}
