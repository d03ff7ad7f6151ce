import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListMessages` page to serve: a conversation's messages, newest first. The page token (`Paging`)
/// carries the conversation it was made for and the id of the last message served (ids are UUIDv7, so
/// "older than that id" continues right after it), and is refused for any other conversation.
struct MessagePage: Sendable, Equatable {
    let conversationID: ConversationID
    /// Serve messages older than this one; nil for the first page.
    let before: MessageID?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_ListMessagesRequest) throws(RPCError) {
        var violations = FieldViolations()
        let conversationID: ConversationID? = violations.id("conversation_id", request.conversationID)
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        before = token.isEmpty ? nil : conversationID.flatMap { Self.decode(token, conversationID: $0) }
        if !token.isEmpty, conversationID != nil, before == nil {
            violations.add("page.page_token", "is not a page token of this conversation")
        }
        self.conversationID = try violations.throwIfAny(conversationID)
    }

    /// The token of the page after the one ending with message `lastID`.
    func nextToken(after lastID: MessageID) -> String {
        Paging.token(conversationID.description, lastID.description)
    }

    private static func decode(_ token: String, conversationID: ConversationID) -> MessageID? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == conversationID.description else {
            return nil
        }
        return MessageID(fields[1])
    }
}
