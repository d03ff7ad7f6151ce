import KindredHandlers
import KindredMessages

/// Blocks: a block ends friendship, requests and follows between the two, both ways, at once, and every other
/// part refuses any interaction across it (`Relationship.requireNoBlock`). Unblocking restores nothing.
struct Blocks: Sendable {
    let context: SocialContext

    /// `BlockUser`: `me` blocks `userID`, who must exist and not be `me`. Blocking twice changes nothing.
    func block(_ userID: UserID, as me: UserID) async throws {
        let blocked = try await context.counterpart(userID, of: me)
        let now = context.clock.now
        try await context.changingPair(me, blocked.id) { tx in
            try await BlockStore.block(me, blocked.id, at: now, in: tx)
        }
    }

    /// `UnblockUser`: whether `me` blocked `userID` or not, `me` does not now.
    func unblock(_ userID: UserID, as me: UserID) async throws {
        try await BlockStore.unblock(me, userID, on: context.database)
    }

    /// `ListBlockedUsers`: whom `me` blocked, most recent first, a page at a time.
    func blocked(_ request: Kindred_Common_V1_PageRequest?, by me: UserID) async throws
        -> Kindred_Social_V1_ListBlockedUsersResponse
    {
        var violations = FieldViolations()
        let page = GraphPage(.blockedUsers, of: me, request, &violations)
        try violations.throwIfAny()
        let served = page.serve(try await GraphStore.entries(page, on: context.database))
        return Kindred_Social_V1_ListBlockedUsersResponse(
            users: served.entries.map(\.person),
            page: Kindred_Common_V1_PageResponse(nextPageToken: served.nextPageToken))
    }
}
