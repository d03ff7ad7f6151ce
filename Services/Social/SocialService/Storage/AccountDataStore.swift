import KindredHandlers
import KindredPostgres

/// A user's rows across the social schema, for identity's account events.
enum AccountDataStore {
    static func markAdult(_ user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("UPDATE social.people SET minor = false WHERE user_id = \(user)::uuid")
    }

    /// Everything of `user` but the reports they made (see `AccountEvents`).
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        for statement in graph(user) + conversations(user) + events(user) {
            try await tx.query(statement)
        }
        try await tx.query("DELETE FROM social.people WHERE user_id = \(user)::uuid")
    }

    private static func graph(_ user: UserID) -> [PostgresQuery] {
        [
            "DELETE FROM social.friendships WHERE user_id = \(user)::uuid OR friend_id = \(user)::uuid",
            "DELETE FROM social.friend_requests WHERE sender_id = \(user)::uuid OR recipient_id = \(user)::uuid",
            "DELETE FROM social.follows WHERE follower_id = \(user)::uuid OR followee_id = \(user)::uuid",
            "DELETE FROM social.blocks WHERE blocker_id = \(user)::uuid OR blocked_id = \(user)::uuid",
        ]
    }

    private static func conversations(_ user: UserID) -> [PostgresQuery] {
        [
            """
            DELETE FROM social.messages WHERE conversation_id IN (
                SELECT conversation_id FROM social.conversations WHERE user_id = \(user)::uuid)
            """,
            // A conversation has a row per side, inserted together (`MessageStore.insert`) and deleted only
            // here, together: the other sides' rows are reached by their key from the user's own, not by
            // other_id, which no index leads (a full scan of the table per deleted account).
            """
            WITH own AS (DELETE FROM social.conversations WHERE user_id = \(user)::uuid RETURNING other_id)
            DELETE FROM social.conversations c USING own
            WHERE c.user_id = own.other_id AND c.other_id = \(user)::uuid
            """,
            "DELETE FROM social.message_inboxes WHERE user_id = \(user)::uuid",
        ]
    }

    /// The events they organized with everything hanging off them, then their part in other events.
    private static func events(_ user: UserID) -> [PostgresQuery] {
        [
            """
            DELETE FROM social.media_view_approvals a USING social.event_media m, social.events e
            WHERE a.media_id = m.id AND m.event_id = e.id AND e.organizer_id = \(user)::uuid
            """,
            "DELETE FROM social.media_view_approvals WHERE minor_id = \(user)::uuid",
            """
            DELETE FROM social.event_media m USING social.events e
            WHERE m.event_id = e.id AND e.organizer_id = \(user)::uuid
            """,
            """
            DELETE FROM social.event_join_approvals a USING social.events e
            WHERE a.event_id = e.id AND e.organizer_id = \(user)::uuid
            """,
            "DELETE FROM social.event_join_approvals WHERE minor_id = \(user)::uuid",
            """
            DELETE FROM social.event_invitations i USING social.events e
            WHERE i.event_id = e.id AND e.organizer_id = \(user)::uuid
            """,
            "DELETE FROM social.event_invitations WHERE user_id = \(user)::uuid",
            """
            DELETE FROM social.event_attendees a USING social.events e
            WHERE a.event_id = e.id AND e.organizer_id = \(user)::uuid
            """,
            """
            UPDATE social.events e SET attendee_count = e.attendee_count - 1
            FROM social.event_attendees a WHERE a.event_id = e.id AND a.user_id = \(user)::uuid
            """,
            "DELETE FROM social.event_attendees WHERE user_id = \(user)::uuid",
            "DELETE FROM social.events WHERE organizer_id = \(user)::uuid",
        ]
    }
}
