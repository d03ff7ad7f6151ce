import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Direct messages and the stream of what the caller receives. A person only: a service token has no
/// conversations.
extension SocialAPI {
    func sendMessage(_ request: Kindred_Social_V1_SendMessageRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_SendMessageResponse
    {
        let caller = try context.authenticatedCaller()
        guard let me = caller.accountUserID else { throw SocialError.accountRequired }
        return Kindred_Social_V1_SendMessageResponse(
            message: try await messages.send(
                try MessageDraft(request), from: me, restricted: caller.parentalControls))
    }

    func listConversations(_ request: Kindred_Social_V1_ListConversationsRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_ListConversationsResponse
    {
        try await messages.conversations(of: try context.account(), page: try ConversationPage(request))
    }

    func listMessages(_ request: Kindred_Social_V1_ListMessagesRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ListMessagesResponse
    {
        try await messages.messages(for: try context.account(), page: try MessagePage(request))
    }

    func watchMessages(
        _ request: Kindred_Social_V1_WatchMessagesRequest,
        responses: ResponseStreamWriter<Kindred_Social_V1_Message>,
        context: ServerContext
    ) async throws {
        try await messages.watch(for: try context.account(), after: request.afterCursor) { message in
            try await responses.write(message)
        }
        // The watch returns only once the bell closed its streams, as the process drains.
        throw RPCError.serverShuttingDown
    }
}
