import KindredEvents
public import KindredHandlers
import KindredMessages

/// Gamification's events (`coins.changed`, `badge.earned`, `challenge.finished`): each appended to
/// `gamification.event_outbox` in the transaction of its change, as a serialized `Event` holding only its
/// payload; the stream adds the cursor, the type and the time as it serves it.
enum GamificationEvents {
    static let outbox = EventOutbox(schema: "gamification")
    /// The `ErrorInfo.domain` of gamification's refusals.
    static let errorDomain = "kindred.gamification"
}

extension Kindred_Gamification_V1_Event: WatchedEvent {}
