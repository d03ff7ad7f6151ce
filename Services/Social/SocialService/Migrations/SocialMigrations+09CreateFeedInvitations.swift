import KindredPostgres

extension SocialMigrations {
    /// The feed finds the private events a viewer was invited to from the viewer's side.
    static let v9CreateFeedInvitations = Migration(
        version: 9, name: "create_feed_invitations",
        sql: """
            CREATE INDEX event_invitations_by_user ON social.event_invitations (user_id, event_id);
            """)
}
