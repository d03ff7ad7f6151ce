import KindredEvents
import KindredMessages
import KindredRuntime

/// Social's events (`message.new_contact`, `event.joined`, `content.reported`): each appended to
/// `social.event_outbox` in the transaction of its change, as a serialized `Event` holding only its payload;
/// the stream adds the cursor, the type and the time as it serves it.
enum SocialEvents {
    static let outbox = EventOutbox(schema: "social")
    /// The `ErrorInfo.domain` of social's refusals.
    static let errorDomain = "kindred.social"

    /// The stream's message for a stored event: its payload, with the cursor, type and time the outbox gave it.
    static func message(from event: OutboxEvent) throws -> Kindred_Social_V1_Event {
        var message = try Kindred_Social_V1_Event(serializedBytes: event.payload)
        message.cursor = event.cursor
        message.type = event.type
        message.occurredAt = Kindred_Common_V1_Timestamp(event.occurredAt)
        return message
    }
}
