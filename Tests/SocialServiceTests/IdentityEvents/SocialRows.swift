import Foundation
import KindredHandlers
import KindredPostgres
@testable import ServiceTestSupport
@testable import SocialService

/// Social rows written directly, as the parts' RPCs would write them, for tests of what reads or removes
/// them across every table.
struct SocialRows {
    let pool: PostgresPool

    func befriend(_ one: String, _ other: String) async throws {
        try await pool.query(
            """
            INSERT INTO social.friendships VALUES (\(one)::uuid, \(other)::uuid, now()),
                (\(other)::uuid, \(one)::uuid, now())
            """)
    }

    func follow(_ follower: String, _ followee: String) async throws {
        try await pool.query(
            "INSERT INTO social.follows VALUES (\(follower)::uuid, \(followee)::uuid, now())")
    }

    func block(_ blocker: String, _ blocked: String) async throws {
        try await pool.query("INSERT INTO social.blocks VALUES (\(blocker)::uuid, \(blocked)::uuid, now())")
    }

    /// A conversation of one message from `sender` to `recipient`, written as `SendMessage` writes it.
    func converse(_ sender: String, _ recipient: String) async throws {
        let now = Date()
        let message = StoredMessage(
            id: MessageID.generate(at: now), conversationID: ConversationID.generate(at: now),
            sender: Person(id: UserID(sender)!, username: "", minor: false), recipientID: UserID(recipient)!,
            body: "hi",
            sentAt: now, reporters: 0)
        _ = try await MessageStore.insert(
            message, requestID: message.id.description, newContact: nil,
            bodies: SocialTestServer.messageBodies,
            on: pool)
    }

    /// A public event by `organizer` with one media item, joined by `attendees`; its id.
    func event(by organizer: String, attendedBy attendees: [String]) async throws -> String {
        let id = UUIDv7.generate(at: Date())
        try await pool.query(
            """
            INSERT INTO social.events (id, organizer_id, title, description, starts_at, place, public, mature,
                created_at, request_id, attendee_count, has_media)
            VALUES (\(id)::uuid, \(organizer)::uuid, 'Picnic', '', now(), 'Park', true, false, now(), \(id),
                \(attendees.count), true)
            """)
        try await pool.query(
            """
            INSERT INTO social.event_media VALUES (\(UUIDv7.generate(at: Date()))::uuid, \(id)::uuid, 0,
                'https://media.kindred.test/1.jpg', 'image/jpeg', false)
            """)
        for attendee in attendees {
            try await pool.query(
                "INSERT INTO social.event_attendees VALUES (\(id)::uuid, \(attendee)::uuid, now())")
        }
        return id
    }

    /// Rows anywhere in the schema that name `user` (reports aside, which stay by design).
    func mentions(_ user: String) async throws -> Int {
        try await count(
            """
            SELECT (SELECT count(*) FROM social.people WHERE user_id = \(user)::uuid)
                + (SELECT count(*) FROM social.friendships WHERE \(user)::uuid IN (user_id, friend_id))
                + (SELECT count(*) FROM social.follows WHERE \(user)::uuid IN (follower_id, followee_id))
                + (SELECT count(*) FROM social.blocks WHERE \(user)::uuid IN (blocker_id, blocked_id))
                + (SELECT count(*) FROM social.conversations WHERE \(user)::uuid IN (user_id, other_id))
                + (SELECT count(*) FROM social.messages WHERE \(user)::uuid IN (sender_id, recipient_id))
                + (SELECT count(*) FROM social.message_inboxes WHERE user_id = \(user)::uuid)
                + (SELECT count(*) FROM social.events WHERE organizer_id = \(user)::uuid)
                + (SELECT count(*) FROM social.event_attendees WHERE user_id = \(user)::uuid)
            """)
    }

    func count(_ query: PostgresQuery) async throws -> Int {
        try await pool.query(query)[0].decode(Int.self)
    }
}
