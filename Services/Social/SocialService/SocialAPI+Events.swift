import KindredAPI
import KindredMessages
import KindredRPC

/// Events, joining them, and the feed: placeholders until the part lands.
extension SocialAPI {
    func createEvent(_ request: Kindred_Social_V1_CreateEventRequest, context: ServerContext) async throws -> Kindred_Social_V1_CreateEventResponse {
        throw RPCError(.unimplemented, "CreateEvent is not implemented yet")
    }

    func getEvent(_ request: Kindred_Social_V1_GetEventRequest, context: ServerContext) async throws -> Kindred_Social_V1_GetEventResponse {
        throw RPCError(.unimplemented, "GetEvent is not implemented yet")
    }

    func inviteToEvent(_ request: Kindred_Social_V1_InviteToEventRequest, context: ServerContext) async throws -> Kindred_Social_V1_InviteToEventResponse {
        throw RPCError(.unimplemented, "InviteToEvent is not implemented yet")
    }

    func joinEvent(_ request: Kindred_Social_V1_JoinEventRequest, context: ServerContext) async throws -> Kindred_Social_V1_JoinEventResponse {
        throw RPCError(.unimplemented, "JoinEvent is not implemented yet")
    }

    func leaveEvent(_ request: Kindred_Social_V1_LeaveEventRequest, context: ServerContext) async throws -> Kindred_Social_V1_LeaveEventResponse {
        throw RPCError(.unimplemented, "LeaveEvent is not implemented yet")
    }

    func listFeed(_ request: Kindred_Social_V1_ListFeedRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListFeedResponse {
        throw RPCError(.unimplemented, "ListFeed is not implemented yet")
    }

    func requestMediaView(_ request: Kindred_Social_V1_RequestMediaViewRequest, context: ServerContext) async throws -> Kindred_Social_V1_RequestMediaViewResponse {
        throw RPCError(.unimplemented, "RequestMediaView is not implemented yet")
    }
}
