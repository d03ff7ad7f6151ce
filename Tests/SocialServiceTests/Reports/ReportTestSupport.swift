import Foundation
import KindredHandlers
import KindredPostgres
import KindredRuntime
@testable import ServiceTestSupport
@testable import SocialService

/// Reports filed below the RPCs over a stack's database, and the content they name, inserted as the messages
/// and events parts store it. A reporter is any id (the token's subject); an owner is someone social has met.
struct ReportTest {
    let stack: SocialTestStack
    let reports: Reports

    init(_ stack: SocialTestStack) {
        self.stack = stack
        reports = Reports(context: stack.context)
    }

    /// A reporter nobody has met: filing a report needs only the caller's id.
    static func someone() -> String { UUIDv7.generate(at: Date()) }

    /// Files a report of `kind` `id` by `reporter`, as `ReportContent` does once the caller is known.
    func file(_ kind: ContentReport.Kind, _ id: String, by reporter: String, reason: String = "it is spam")
        async throws -> ReportOutcome
    {
        let report = try ContentReport(.init(contentKind: kind.proto, contentID: id, reason: reason))
        return try await reports.file(report, by: UserID(reporter)!)
    }

    /// An adult or a minor social has met (as every content owner is, before their content is stored).
    func met(minor: Bool = false) async throws -> String {
        let id = Self.someone()
        try await PeopleStore.remember(
            Person(id: UserID(id)!, username: "u\(id.prefix(8))", minor: minor), at: Date(), on: stack.pool)
        return id
    }

    /// A message from `sender` to `recipient`, in their conversation (a row per side, as sending writes).
    func message(from sender: String, to recipient: String) async throws -> String {
        let (id, conversation) = (Self.someone(), Self.someone())
        try await stack.pool.query(
            """
            INSERT INTO social.conversations
                (user_id, other_id, conversation_id, last_message_id, last_message_at)
            VALUES (\(sender)::uuid, \(recipient)::uuid, \(conversation)::uuid, \(id)::uuid, now()),
                   (\(recipient)::uuid, \(sender)::uuid, \(conversation)::uuid, \(id)::uuid, now())
            ON CONFLICT (user_id, other_id) DO NOTHING
            """)
        try await stack.pool.query(
            """
            INSERT INTO social.messages
                (conversation_id, id, sender_id, recipient_id, body, sent_at, request_id, recipient_seq)
            SELECT c.conversation_id, \(id)::uuid, \(sender)::uuid, \(recipient)::uuid, 'hi', now(), \(id),
                (SELECT count(*) + 1 FROM social.messages WHERE recipient_id = \(recipient)::uuid)
            FROM social.conversations c WHERE c.user_id = \(sender)::uuid AND c.other_id = \(recipient)::uuid
            """)
        return id
    }

    /// An event organized by `organizer`, public unless told otherwise.
    func event(by organizer: String, public isPublic: Bool = true) async throws -> String {
        let id = Self.someone()
        try await stack.pool.query(
            """
            INSERT INTO social.events
                (id, organizer_id, title, description, starts_at, place, public, mature, created_at, request_id)
            VALUES (\(id)::uuid, \(organizer)::uuid, 'Picnic', '', now(), 'Park', \(isPublic), false, now(), \(id))
            """)
        return id
    }

    /// `blocker` blocks `blocked`.
    func block(_ blocker: String, _ blocked: String) async throws {
        try await stack.pool.query(
            "INSERT INTO social.blocks VALUES (\(blocker)::uuid, \(blocked)::uuid, now())")
    }

    /// A media item of event `event`, which then has media, as `CreateEvent` writes them.
    func media(of event: String) async throws -> String {
        let id = Self.someone()
        try await stack.pool.query(
            """
            WITH item AS (
                INSERT INTO social.event_media (id, event_id, position, url, content_type, flagged)
                VALUES (\(id)::uuid, \(event)::uuid, 0, 'https://media.example/1.jpg', 'image/jpeg', false))
            UPDATE social.events SET has_media = true WHERE id = \(event)::uuid
            """)
        return id
    }

    /// What `social.report_tallies` holds for the content: nil when nobody reported it.
    func tally(_ kind: ContentReport.Kind, _ id: String) async throws -> Int? {
        try await stack.pool.query(
            """
            SELECT reporters FROM social.report_tallies
            WHERE content_kind = \(kind.rawValue)::smallint AND content_id = \(id)::uuid
            """
        ).first?.decode(Int.self)
    }
}
