import KindredEvents
public import KindredHandlers
import KindredMessages

/// Social's events (`message.new_contact`, `event.joined`, `content.reported`): each appended to
/// `social.event_outbox` in the transaction of its change, as a serialized `Event` holding only its payload;
/// the stream adds the cursor, the type and the time as it serves it.
enum SocialEvents {
    static let outbox = EventOutbox(schema: "social")
    /// The `ErrorInfo.domain` of social's refusals.
    static let errorDomain = "kindred.social"
}

extension Kindred_Social_V1_Event: WatchedEvent {}
