import KindredAPI
import KindredMessages
import KindredRPC

/// Direct messages and their stream: placeholders until the part lands.
extension SocialAPI {
    func sendMessage(_ request: Kindred_Social_V1_SendMessageRequest, context: ServerContext) async throws -> Kindred_Social_V1_SendMessageResponse {
        throw RPCError(.unimplemented, "SendMessage is not implemented yet")
    }

    func listConversations(_ request: Kindred_Social_V1_ListConversationsRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListConversationsResponse {
        throw RPCError(.unimplemented, "ListConversations is not implemented yet")
    }

    func listMessages(_ request: Kindred_Social_V1_ListMessagesRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListMessagesResponse {
        throw RPCError(.unimplemented, "ListMessages is not implemented yet")
    }

    func watchMessages(_ request: Kindred_Social_V1_WatchMessagesRequest, responses: ResponseStreamWriter<Kindred_Social_V1_Message>, context: ServerContext) async throws {
        throw RPCError(.unimplemented, "WatchMessages is not implemented yet")
    }
}
