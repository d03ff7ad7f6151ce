import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

extension SocialAPI {
    func watchEvents(
        _ request: Kindred_Social_V1_WatchEventsRequest,
        responses: ResponseStreamWriter<Kindred_Social_V1_Event>,
        context: ServerContext
    ) async throws {
        try await events.serveWatch(
            after: request.afterCursor, context: context, domain: SocialEvents.errorDomain,
            write: responses.write)
    }
}
