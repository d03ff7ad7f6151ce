import KindredPostgres

extension SocialMigrations {
    /// The indexes the graph's lists page on: each list reads one index range, newest first, with the other
    /// user's id as the tie-breaker, so a page continues from the last one served without sorting the list.
    /// Migration 2 gave friendships and follows theirs; requests and blocks get theirs here.
    static let v7CreateGraphPages = Migration(
        version: 7, name: "create_graph_pages",
        sql: """
            -- Replaces friend_requests_incoming, which lacks the tie-breaker a keyset page needs.
            DROP INDEX social.friend_requests_incoming;
            CREATE INDEX friend_requests_incoming ON social.friend_requests (recipient_id, sent_at DESC, sender_id);
            CREATE INDEX friend_requests_outgoing ON social.friend_requests (sender_id, sent_at DESC, recipient_id);
            CREATE INDEX blocks_by_recency ON social.blocks (blocker_id, since DESC, blocked_id);
            """)
}
