import KindredAPI
import KindredMessages
import KindredRPC

/// Events, joining them, the feed and media views: `Gatherings` holds the rules.
extension SocialAPI {
    func createEvent(_ request: Kindred_Social_V1_CreateEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_CreateEventResponse
    {
        .init(event: try await gatherings.create(request, as: try context.authenticatedCaller()))
    }

    func getEvent(_ request: Kindred_Social_V1_GetEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_GetEventResponse
    {
        .init(event: try await gatherings.event(request.eventID, as: try context.authenticatedCaller()))
    }

    func inviteToEvent(_ request: Kindred_Social_V1_InviteToEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_InviteToEventResponse
    {
        .init(invitedUserIds: try await gatherings.invite(request, as: try context.authenticatedCaller()))
    }

    func joinEvent(_ request: Kindred_Social_V1_JoinEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_JoinEventResponse
    {
        .init(
            event: try await gatherings.join(
                request.eventID, as: try context.authenticatedCaller(), forwarding: context.requestMetadata))
    }

    func leaveEvent(_ request: Kindred_Social_V1_LeaveEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_LeaveEventResponse
    {
        try await gatherings.leave(request.eventID, as: try context.authenticatedCaller())
        return .init()
    }

    func listFeed(_ request: Kindred_Social_V1_ListFeedRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ListFeedResponse
    {
        let page = try await gatherings.feed(request, as: try context.authenticatedCaller())
        return .init(
            events: page.events, page: Kindred_Common_V1_PageResponse(nextPageToken: page.nextPageToken))
    }

    func requestMediaView(_ request: Kindred_Social_V1_RequestMediaViewRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_RequestMediaViewResponse
    {
        .init(
            approvalID: try await gatherings.requestView(
                of: request.mediaID, as: try context.authenticatedCaller(),
                forwarding: context.requestMetadata))
    }
}
