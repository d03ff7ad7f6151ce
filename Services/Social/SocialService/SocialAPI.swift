import KindredAPI
import KindredEvents
import KindredMessages
import KindredRPC
import KindredRuntime

/// `kindred.social.v1.SocialService`. So far it serves its event outbox only, for family's guardian alerts;
/// the social features arrive with their issue and append their events to `SocialEvents.outbox`.
struct SocialAPI: Kindred_Social_V1_SocialService.Service {
    /// The `social.event_outbox` as streams, for `WatchEvents`.
    let events: EventFeed

    func watchEvents(
        _ request: Kindred_Social_V1_WatchEventsRequest,
        responses: ResponseStreamWriter<Kindred_Social_V1_Event>,
        context: ServerContext
    ) async throws {
        _ = try context.authenticatedCaller(as: .service)
        guard request.afterCursor >= 0 else {
            throw FieldViolations.single("after_cursor", "must not be negative")
        }
        do {
            for try await event in events.events(after: request.afterCursor) {
                try await responses.write(try SocialEvents.message(from: event))
            }
        } catch let pruned as EventsPruned {
            throw RPCError.refusal(
                .failedPrecondition, "EVENTS_PRUNED",
                "Events after cursor \(pruned.afterCursor) are no longer kept; resynchronise, then watch again.",
                domain: SocialEvents.errorDomain,
                metadata: ["oldest_retained_cursor": "\(pruned.oldestRetained)"])
        }
    }
}
