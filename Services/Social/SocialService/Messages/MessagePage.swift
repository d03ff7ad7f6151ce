import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListMessages` page to serve: a conversation's messages, newest first. The page token (`Paging`)
/// carries the conversation it was made for and the id of the last message served (ids are UUIDv7, so
/// "older than that id" continues right after it), and is refused for any other conversation.
struct MessagePage: Sendable, Equatable {
    /// Lower-cased.
    let conversationID: String
    /// Serve messages older than this one; nil for the first page.
    let before: String?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_ListMessagesRequest) throws(RPCError) {
        var violations = FieldViolations()
        if !UUIDv7.isWellFormed(request.conversationID) {
            violations.add("conversation_id", "is not a conversation id")
        }
        conversationID = request.conversationID.lowercased()
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        before = token.isEmpty ? nil : Self.decode(token, conversationID: conversationID)
        if !token.isEmpty, before == nil {
            violations.add("page.page_token", "is not a page token of this conversation")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with message `lastID`.
    func nextToken(after lastID: String) -> String {
        Paging.token(conversationID, lastID)
    }

    private static func decode(_ token: String, conversationID: String) -> String? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == conversationID,
            UUIDv7.isWellFormed(fields[1])
        else { return nil }
        return fields[1]
    }
}
