import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListConversations` page to serve. The list is ordered by last activity, newest first, then by
/// conversation id; the page token (`Paging`) carries both for the last conversation served, so the next
/// page continues right after it whatever moved to the top since.
struct ConversationPage: Sendable, Equatable {
    /// Where a page ends: its last conversation's activity time and id.
    struct Position: Sendable, Equatable {
        let lastMessageAt: Date
        let conversationID: ConversationID
    }

    /// Serve conversations after this one; nil for the first page.
    let after: Position?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_ListConversationsRequest) throws(RPCError) {
        var violations = FieldViolations()
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        after = token.isEmpty ? nil : Self.decode(token)
        if !token.isEmpty, after == nil {
            violations.add("page.page_token", "is not a page token of this list")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending at `position`.
    func nextToken(after position: Position) -> String {
        Paging.token(Self.listName, Paging.field(position.lastMessageAt), position.conversationID.description)
    }

    private static let listName = "conversations"

    private static func decode(_ token: String) -> Position? {
        guard let fields = Paging.fields(of: token, count: 3), fields[0] == listName,
            let lastMessageAt = Paging.instant(fields[1]), let conversationID = ConversationID(fields[2])
        else { return nil }
        return Position(lastMessageAt: lastMessageAt, conversationID: conversationID)
    }
}
