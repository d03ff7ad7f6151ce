import KindredPostgres

extension SocialMigrations {
    /// `events_public` in the feed's order, `(created_at DESC, id DESC)`: with `id` ascending, as migration 3 made
    /// it, the feed's public part walked the index and then sorted each run of equal times again (an incremental
    /// sort, set up on every execution). In the page's own order the walk is the answer: the page took 4–31 µs
    /// less of PostgreSQL's CPU an execution, of ~400 (pgbench, Services/Social/README.md "The public part in feed
    /// order").
    static let v15PublicEventsInFeedOrder = Migration(
        version: 15, name: "public_events_in_feed_order",
        sql: """
            DROP INDEX social.events_public;
            CREATE INDEX events_public ON social.events (created_at DESC, id DESC) WHERE public;
            """)
}
