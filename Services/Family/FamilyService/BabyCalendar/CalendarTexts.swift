import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// A calendar event's name, description and location as `family.calendar_events` keeps them: sealed together
/// under family's data keys (family migration 30), bound to the event. Events from before sealing keep their
/// plaintext until `kindred-family keys rotate-data` seals it.
enum CalendarTexts {
    /// An event's key, which its texts are bound to.
    struct Key: Sendable {
        let profile: BabyProfileID
        let event: CalendarEventID
    }

    /// The sealed texts: name, description, location.
    static func sealed(with cipher: FieldCipher) -> SealedTexts<Key> {
        SealedTexts(cipher: cipher, count: 3) { "family.calendar_events.texts/\($0.event)" }
    }

    /// The video-call link, sealed on its own (family migration 34): it may admit whoever reads it.
    static func link(with cipher: FieldCipher) -> SealedText<Key> {
        SealedText(cipher: cipher) { "family.calendar_events.video_call_url/\($0.event)" }
    }

    /// The columns as `keys rotate-data` re-seals them.
    static func rotations(cipher: FieldCipher, on database: PostgresPool) -> [any SealedColumn] {
        [
            SealedTextRotation(
                name: "calendar event texts", database: database, text: sealed(with: cipher),
                rows: { try await CalendarEventStore.texts(after: $0, limit: $1, on: $2) },
                reseal: { try await CalendarEventStore.reseal($0, was: $1, as: $2, in: $3) }),
            SealedTextRotation(
                name: "calendar video-call links", database: database, text: link(with: cipher),
                rows: { try await CalendarEventStore.links(after: $0, limit: $1, on: $2) },
                reseal: { try await CalendarEventStore.resealLink($0, was: $1, as: $2, in: $3) }),
        ]
    }
}

extension CalendarEventDetails {
    /// The texts sealed together, in `CalendarTexts`' order.
    var texts: [String] { [name, description, location] }
}
