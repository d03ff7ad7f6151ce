public import FoundationEssentials
public import KindredEvents
public import KindredMessages
public import KindredRPC

/// A service's `Event` message, as its `WatchEvents` serves it: the outbox stores the message with only its
/// payload set, and the stream completes it with the cursor, type, time and writer's trace the outbox kept.
public protocol WatchedEvent: ProtoMessage {
    var cursor: Int64 { get set }
    var type: String { get set }
    var occurredAt: Date? { get set }
    var traceparent: String { get set }
}

extension EventFeed {
    /// Answers a `WatchEvents` call the way every service does: services only, a cursor that is not negative,
    /// every event after it and then new ones as they come, each handed to `write`. A consumer whose next
    /// events were pruned gets FAILED_PRECONDITION `EVENTS_PRUNED` (in the service's error `domain`), with the
    /// oldest cursor still kept.
    public func serveWatch<Event: WatchedEvent>(
        after cursor: Int64, context: ServerContext, domain: String, write: (Event) async throws -> Void
    ) async throws {
        _ = try context.authenticatedCaller(as: .service)
        guard cursor >= 0 else { throw FieldViolations.single("after_cursor", "must not be negative") }
        do {
            for try await event in events(after: cursor) {
                try await write(try Self.message(from: event))
            }
            // The feed ends its streams only when it closes, as the process drains.
            throw RPCError.serverShuttingDown
        } catch let pruned as EventsPruned {
            throw RPCError.refusal(
                .failedPrecondition, "EVENTS_PRUNED",
                "Events after cursor \(pruned.afterCursor) are no longer kept; resynchronise, then watch again.",
                domain: domain, metadata: ["oldest_retained_cursor": "\(pruned.oldestRetained)"])
        }
    }

    /// The stream's message for a stored event: its payload, with the cursor, type, time and trace the outbox
    /// kept for it.
    public static func message<Event: WatchedEvent>(from event: OutboxEvent) throws -> Event {
        var message = try Event(serializedBytes: event.payload)
        message.cursor = event.cursor
        message.type = event.type
        message.occurredAt = event.occurredAt
        message.traceparent = event.traceparent
        return message
    }
}
