import KindredHandlers
import KindredPostgres

/// The feed: one statement per page.
extension EventStore {
    /// Up to `page.size + 1` events for `viewer`'s feed, newest first, so the caller can tell whether another
    /// page follows: public events, and the private ones of the people they follow that they may see; none
    /// across a block, none reported by enough people, no mature one when `hidingMature`. Each branch walks
    /// an index in feed order from the page's position and stops at the page's size: the public events by
    /// `events_public`; the private events of each followed friend by `events_private_by_organizer`; the
    /// private events of followed people who are not friends only where the viewer was invited
    /// (`event_invitations_by_user`), since nobody else may see those — walking every followed person's
    /// private events would test, row by row, events the viewer may not see.
    static func feed(for viewer: UserID, _ page: FeedPage, hidingMature: Bool, on db: some StatementRunner)
        async throws -> [ViewedEvent]
    {
        let limit = page.size + 1
        return try await db.pureRead(
            """
            WITH page AS (
                (SELECT e.* FROM \(asking: viewer, page, hidingMature) CROSS JOIN social.events e
                 WHERE e.public AND \(EventSQL.onFeedPage)
                 ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit))
                UNION ALL
                (SELECT e.* FROM \(asking: viewer, page, hidingMature) CROSS JOIN social.follows f
                 JOIN social.friendships s ON s.user_id = f.follower_id AND s.friend_id = f.followee_id
                 CROSS JOIN LATERAL (
                     SELECT e.* FROM social.events e
                     WHERE e.organizer_id = f.followee_id AND NOT e.public AND \(EventSQL.onFeedPage)
                     ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit)) e
                 WHERE f.follower_id = q.viewer)
                UNION ALL
                (SELECT e.* FROM \(asking: viewer, page, hidingMature) CROSS JOIN social.event_invitations i
                 JOIN social.events e ON e.id = i.event_id
                 WHERE i.user_id = q.viewer AND NOT e.public AND \(EventSQL.onFeedPage)
                     AND EXISTS (SELECT 1 FROM social.follows f
                                 WHERE f.follower_id = q.viewer AND f.followee_id = e.organizer_id)
                     AND NOT EXISTS (SELECT 1 FROM social.friendships s
                                     WHERE s.user_id = q.viewer AND s.friend_id = e.organizer_id)
                 ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit))
            )
            SELECT \(EventSQL.columns)
            FROM \(asking: viewer) CROSS JOIN page e JOIN social.people p ON p.user_id = e.organizer_id
            ORDER BY e.created_at DESC, e.id DESC LIMIT \(limit)
            """
        ).map(viewedEvent)
    }
}
