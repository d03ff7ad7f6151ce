import KindredPostgres

/// The feed: one statement per page.
extension EventStore {
    /// Up to `page.size + 1` events for `viewer`'s feed, newest first, so the caller can tell whether another
    /// page follows: public events, and the private ones of the people they follow that they may see; none
    /// across a block, none reported by enough people, no mature one when `hidingMature`. Each branch walks
    /// an index in feed order from the page's position and stops at the page's size: the public events by
    /// `events_public`, each followed person's private ones by `events_private_by_organizer`.
    static func feed(for viewer: String, _ page: FeedPage, hidingMature: Bool, on db: some StatementRunner)
        async throws -> [ViewedEvent]
    {
        let limit = page.size + 1
        return try await db.query(
            """
            WITH page AS (
                (SELECT e.* FROM \(asking: viewer, page, hidingMature) CROSS JOIN social.events e
                 WHERE e.public AND \(EventSQL.onFeedPage)
                 ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit))
                UNION ALL
                (SELECT e.* FROM \(asking: viewer, page, hidingMature) CROSS JOIN social.follows f
                 CROSS JOIN LATERAL (
                     SELECT e.* FROM social.events e
                     WHERE e.organizer_id = f.followee_id AND NOT e.public AND \(EventSQL.onFeedPage)
                     ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit)) e
                 WHERE f.follower_id = q.viewer)
            )
            SELECT \(EventSQL.columns)
            FROM \(asking: viewer) CROSS JOIN page e JOIN social.people p ON p.user_id = e.organizer_id
            ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit)
            """
        ).map(viewedEvent)
    }
}
