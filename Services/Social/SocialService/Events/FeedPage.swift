import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListFeed` page to serve: events created before a position, newest first (`created_at DESC, id
/// DESC`). The page token (`Paging`) carries the position of the last event served, its creation time in
/// microseconds (as PostgreSQL keeps it, so no rounding skips a neighbour) and its id: a keyset, so events
/// created since the first page do not shift the later ones.
struct FeedPage: Sendable, Equatable {
    /// Serve events created before this instant, or at it with a smaller id.
    let before: Date
    let beforeID: EventID
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_ListFeedRequest) throws(RPCError) {
        var violations = FieldViolations()
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        let position = token.isEmpty ? Self.start : Self.decode(token)
        if position == nil { violations.add("page.page_token", "is not a page token of this list") }
        try violations.throwIfAny()
        (before, beforeID) = position ?? Self.start
    }

    /// The token of the page after `last`.
    static func token(after last: EventRecord) -> String {
        Paging.token("feed", Paging.field(last.createdAt), last.id.description)
    }

    /// Before every event: the first page.
    private static let start = (Date.distantFuture, EventID("ffffffff-ffff-ffff-ffff-ffffffffffff")!)

    private static func decode(_ token: String) -> (Date, EventID)? {
        guard let fields = Paging.fields(of: token, count: 3), fields[0] == "feed",
            let before = Paging.instant(fields[1]), let beforeID = EventID(fields[2])
        else { return nil }
        return (before, beforeID)
    }
}
