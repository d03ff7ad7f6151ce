import KindredPostgres

extension SocialMigrations {
    /// What every part reads: the people social has met, the graph (friends, requests, follows, blocks) and the
    /// report tallies that filter content for everyone. Every graph table leads with the user id it is read by,
    /// so that it can be distributed by user id (Citus) as it is.
    static let v2CreateCore = Migration(
        version: 2, name: "create_core",
        sql: """
            -- Identity's id and username of everyone social has met (asked of identity once, then kept), and
            -- whether they were a minor then: a minor only becomes an adult, so a stale true costs one call to
            -- family, never a wrong answer.
            CREATE TABLE social.people (
                user_id uuid PRIMARY KEY,
                username text NOT NULL,
                minor boolean NOT NULL,
                learned_at timestamptz NOT NULL
            );
            CREATE INDEX people_username ON social.people (lower(username));

            -- A friendship is two rows, one per side, so that each user's list is one index range.
            CREATE TABLE social.friendships (
                user_id uuid NOT NULL,
                friend_id uuid NOT NULL,
                since timestamptz NOT NULL,
                PRIMARY KEY (user_id, friend_id)
            );
            CREATE INDEX friendships_by_recency ON social.friendships (user_id, since DESC, friend_id);

            -- Pending requests only: accepting, declining or cancelling deletes the row.
            CREATE TABLE social.friend_requests (
                sender_id uuid NOT NULL,
                recipient_id uuid NOT NULL,
                request_id uuid NOT NULL,
                sent_at timestamptz NOT NULL,
                PRIMARY KEY (sender_id, recipient_id)
            );
            CREATE INDEX friend_requests_incoming ON social.friend_requests (recipient_id, sent_at DESC);
            CREATE INDEX friend_requests_by_id ON social.friend_requests (request_id);

            CREATE TABLE social.follows (
                follower_id uuid NOT NULL,
                followee_id uuid NOT NULL,
                since timestamptz NOT NULL,
                PRIMARY KEY (follower_id, followee_id)
            );
            CREATE INDEX follows_following ON social.follows (follower_id, since DESC, followee_id);
            CREATE INDEX follows_followers ON social.follows (followee_id, since DESC, follower_id);

            CREATE TABLE social.blocks (
                blocker_id uuid NOT NULL,
                blocked_id uuid NOT NULL,
                since timestamptz NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id)
            );
            CREATE INDEX blocks_blocked ON social.blocks (blocked_id, blocker_id);

            -- How many different people reported a piece of content (kindred.social.v1.ContentKind's number);
            -- at ReportTally.filterThreshold it is filtered for everyone. Written only by the reports part.
            CREATE TABLE social.report_tallies (
                content_kind smallint NOT NULL,
                content_id uuid NOT NULL,
                reporters integer NOT NULL,
                PRIMARY KEY (content_kind, content_id)
            );
            """)
}
