import KindredAPI
import KindredHandlers
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
        let caller = try context.authenticatedCaller()
        return .init(
            event: try await gatherings.event(try FieldViolations.id("event_id", request.eventID), as: caller)
        )
    }

    func inviteToEvent(_ request: Kindred_Social_V1_InviteToEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_InviteToEventResponse
    {
        let viewer = try EventViewer(try context.authenticatedCaller())
        let draft = try EventInvitationDraft(request)
        return .init(invitedUserIds: try await gatherings.invite(draft, by: viewer))
    }

    func joinEvent(_ request: Kindred_Social_V1_JoinEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_JoinEventResponse
    {
        let caller = try context.authenticatedCaller()
        return .init(
            event: try await gatherings.join(
                try FieldViolations.id("event_id", request.eventID), as: caller,
                forwarding: context.requestMetadata))
    }

    func leaveEvent(_ request: Kindred_Social_V1_LeaveEventRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_LeaveEventResponse
    {
        let caller = try context.authenticatedCaller()
        try await gatherings.leave(try FieldViolations.id("event_id", request.eventID), as: caller)
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
        let caller = try context.authenticatedCaller()
        return .init(
            approvalID: try await gatherings.requestView(
                of: try FieldViolations.id("media_id", request.mediaID), as: caller,
                forwarding: context.requestMetadata
            ).description)
    }
}
