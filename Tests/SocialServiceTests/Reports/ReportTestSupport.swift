import Foundation
import KindredPostgres
import KindredRuntime
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
        return try await reports.file(report, by: reporter)
    }

    /// An adult or a minor social has met (as every content owner is, before their content is stored).
    func met(minor: Bool = false) async throws -> String {
        let id = Self.someone()
        try await PeopleStore.remember(
            Person(id: id, username: "u\(id.prefix(8))", minor: minor), at: Date(), on: stack.pool)
        return id
    }

    /// A message from `sender` to `recipient`.
    func message(from sender: String, to recipient: String) async throws -> String {
        let id = Self.someone()
        try await stack.pool.query(
            """
            INSERT INTO social.messages
                (conversation_id, id, sender_id, recipient_id, body, sent_at, request_id, recipient_seq)
            SELECT \(Self.someone())::uuid, \(id)::uuid, \(sender)::uuid, \(recipient)::uuid, 'hi', now(), \(id),
                count(*) + 1
            FROM social.messages WHERE recipient_id = \(recipient)::uuid
            """)
        return id
    }

    /// A public event organized by `organizer`.
    func event(by organizer: String) async throws -> String {
        let id = Self.someone()
        try await stack.pool.query(
            """
            INSERT INTO social.events
                (id, organizer_id, title, description, starts_at, place, public, mature, created_at, request_id)
            VALUES (\(id)::uuid, \(organizer)::uuid, 'Picnic', '', now(), 'Park', true, false, now(), \(id))
            """)
        return id
    }

    /// A media item of event `event`.
    func media(of event: String) async throws -> String {
        let id = Self.someone()
        try await stack.pool.query(
            """
            INSERT INTO social.event_media (id, event_id, position, url, content_type, flagged)
            VALUES (\(id)::uuid, \(event)::uuid, 0, 'https://media.example/1.jpg', 'image/jpeg', false)
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
