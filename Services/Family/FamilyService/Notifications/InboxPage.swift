import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// Where a `ListNotifications` page starts and how long it is. The page token is opaque to clients: base64url
/// of the filter it was made for and the position (`seq`) of the last notification served, so the next page
/// continues right after it (newest first) as notifications arrive, and a token cannot be replayed with the
/// other filter.
struct InboxPage: Sendable, Equatable {
    static let defaultSize = 50
    static let maximumSize = 500

    let unreadOnly: Bool
    /// Serve notifications before this position in the recipient's order; nil for the first page.
    let before: Int64?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListNotificationsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let page = request.page ?? Kindred_Common_V1_PageRequest()
        if page.pageSize < 0 { violations.add("page.page_size", "must not be negative") }
        unreadOnly = request.unreadOnly
        size = page.pageSize == 0 ? Self.defaultSize : min(Int(page.pageSize), Self.maximumSize)
        if page.pageToken.isEmpty {
            before = nil
        } else {
            before = Self.decode(page.pageToken, unreadOnly: unreadOnly)
            if before == nil { violations.add("page.page_token", "is not a page token of this listing") }
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending at position `lastSeq`.
    func nextToken(after lastSeq: Int64) -> String {
        Paging.token(Self.filter(unreadOnly: unreadOnly), String(lastSeq))
    }

    private static func filter(unreadOnly: Bool) -> String { unreadOnly ? "unread" : "all" }

    private static func decode(_ token: String, unreadOnly: Bool) -> Int64? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == filter(unreadOnly: unreadOnly),
            let seq = Int64(fields[1]), seq > 0, String(seq) == fields[1]
        else { return nil }
        return seq
    }
}
