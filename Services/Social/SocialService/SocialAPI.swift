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
        try await events.serveWatch(
            after: request.afterCursor, context: context, domain: SocialEvents.errorDomain, write: responses.write)
    }
}
