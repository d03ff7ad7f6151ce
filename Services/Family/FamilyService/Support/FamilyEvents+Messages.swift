import KindredEvents
import KindredMessages
import KindredPostgres
import KindredRuntime

/// Family's events as the outbox stores them and `WatchEvents` serves them. A row holds a serialized `Event`
/// with only its payload; the stream adds the cursor, the type and the time as it serves it.
extension FamilyEvents {
    /// Appends `payload` inside `tx`, the transaction of the change it describes.
    static func append(_ payload: Kindred_Family_V1_Event.OneOf_Payload, in tx: PostgresTransaction)
        async throws
    {
        try await outbox.append(
            type: payload.type, payload: try Kindred_Family_V1_Event(payload: payload).serializedBytes(),
            in: tx)
    }

    /// Hands `write` every event of `feed` after `cursor`, then new ones as they come, as `WatchEvents` sends
    /// them; a consumer whose next events were pruned gets FAILED_PRECONDITION `EVENTS_PRUNED`.
    static func serve(
        _ feed: EventFeed, after cursor: Int64, to write: (Kindred_Family_V1_Event) async throws -> Void
    ) async throws {
        do {
            for try await event in feed.events(after: cursor) {
                try await write(try message(from: event))
            }
        } catch let pruned as EventsPruned {
            throw FamilyError.eventsPruned(after: pruned.afterCursor, oldestRetained: pruned.oldestRetained)
        }
    }

    /// The stream's message for a stored event: its payload, with the cursor, type and time the outbox gave it.
    static func message(from event: OutboxEvent) throws -> Kindred_Family_V1_Event {
        var message = try Kindred_Family_V1_Event(serializedBytes: event.payload)
        message.cursor = event.cursor
        message.type = event.type
        message.occurredAt = Kindred_Common_V1_Timestamp(event.occurredAt)
        return message
    }
}

extension Kindred_Family_V1_Event.OneOf_Payload {
    /// The event's name on the stream.
    var type: String {
        switch self {
        case .approvalDecided: "approval.decided"
        case .parentalControlsChanged: "parental_controls.changed"
        }
    }
}
