import KindredHandlers
import KindredMessages

/// `ListConversations` and `ListMessages`: what the caller may read of their own conversations.
extension Messages {
    /// A page of `userID`'s conversations, the most recently active first, each with the other person and
    /// the last message; conversations with someone blocked either way are left out.
    func conversations(of userID: UserID, page: ConversationPage) async throws
        -> Kindred_Social_V1_ListConversationsResponse
    {
        var listed = try await MessageStore.conversations(
            of: userID, after: page.after, limit: page.size + 1, bodies: bodies, on: database)
        var next = ""
        if listed.count > page.size {
            listed.removeLast()
            let last = listed[listed.count - 1]
            next = page.nextToken(
                after: .init(
                    lastMessageAt: last.lastMessageAt, conversationID: last.lastMessage.conversationID))
        }
        return Kindred_Social_V1_ListConversationsResponse(
            conversations: listed.map { other, lastMessage, _ in
                Kindred_Social_V1_Conversation(
                    conversationID: lastMessage.conversationID.description, other: other.proto,
                    lastMessage: lastMessage.proto)
            },
            page: Kindred_Common_V1_PageResponse(nextPageToken: next))
    }

    /// A page of a conversation's messages, newest first, for one of its two participants; to anyone else,
    /// and across a block either way, CONVERSATION_NOT_FOUND, as if it did not exist.
    func messages(for userID: UserID, page: MessagePage) async throws
        -> Kindred_Social_V1_ListMessagesResponse
    {
        async let allowed = MessageStore.mayRead(page.conversationID, userID, on: database)
        async let read = MessageStore.messages(
            in: page.conversationID, before: page.before, limit: page.size + 1, bodies: bodies, on: database)
        guard try await allowed else { throw SocialError.conversationNotFound }
        var listed = try await read
        var next = ""
        if listed.count > page.size {
            listed.removeLast()
            next = page.nextToken(after: listed[listed.count - 1].id)
        }
        return Kindred_Social_V1_ListMessagesResponse(
            messages: listed.map(\.proto), page: Kindred_Common_V1_PageResponse(nextPageToken: next))
    }
}
