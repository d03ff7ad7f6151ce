import KindredPostgres

extension FamilyMigrations {
    /// Delivering the inbox: the per-recipient order streams follow, push devices and the push outbox a
    /// provider reads, and each user's guardian notification settings.
    static let v8CreateNotificationDelivery = Migration(
        version: 8, name: "create_notification_delivery",
        sql: """
            -- Each recipient's notifications numbered in commit order: a post takes the next number under the
            -- recipient's counter row lock, held to its commit, so a stream that read number n never finds a
            -- smaller one committed later. Ids are UUIDv7, in creation order, not commit order, and in no order
            -- within a millisecond: lists and streams follow seq, and the index on ids is no longer needed.
            CREATE TABLE family.notification_sequences (
                recipient_id uuid PRIMARY KEY,
                last_seq bigint NOT NULL
            );
            ALTER TABLE family.notifications ADD COLUMN seq bigint;
            UPDATE family.notifications n SET seq = numbered.seq
            FROM (SELECT id, row_number() OVER (PARTITION BY recipient_id ORDER BY id) AS seq
                  FROM family.notifications) numbered
            WHERE n.id = numbered.id;
            INSERT INTO family.notification_sequences (recipient_id, last_seq)
            SELECT recipient_id, max(seq) FROM family.notifications GROUP BY recipient_id;
            ALTER TABLE family.notifications ALTER COLUMN seq SET NOT NULL;
            CREATE UNIQUE INDEX notifications_inbox_order ON family.notifications (recipient_id, seq);
            CREATE INDEX notifications_unread ON family.notifications (recipient_id, seq) WHERE read_at IS NULL;
            DROP INDEX family.notifications_inbox;

            -- A device token belongs to one user at a time: registered by another, it moves to them (a new id,
            -- and its queued messages are dropped).
            CREATE TABLE family.push_devices (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL,
                -- kindred.family.v1.PushPlatform's number: 1 APNs, 2 FCM.
                platform smallint NOT NULL CHECK (platform IN (1, 2)),
                device_token text NOT NULL UNIQUE,
                push_enabled boolean NOT NULL,
                registered_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL
            );
            CREATE INDEX push_devices_user ON family.push_devices (user_id);

            -- The push provider's queue: see "Push" in Services/Family/README.md for its contract.
            CREATE TABLE family.push_outbox (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                device_id uuid NOT NULL REFERENCES family.push_devices (id) ON DELETE CASCADE,
                platform smallint NOT NULL,
                device_token text NOT NULL,
                recipient_id uuid NOT NULL,
                notification_id uuid NOT NULL,
                kind smallint NOT NULL,
                title text NOT NULL,
                body text NOT NULL,
                created_at timestamptz NOT NULL
            );
            CREATE INDEX push_outbox_device ON family.push_outbox (device_id);
            CREATE INDEX push_outbox_created ON family.push_outbox (created_at);

            -- No row: both on.
            CREATE TABLE family.notification_settings (
                user_id uuid PRIMARY KEY,
                activity_alerts boolean NOT NULL,
                weekly_summary boolean NOT NULL,
                updated_at timestamptz NOT NULL
            );
            """)
}
