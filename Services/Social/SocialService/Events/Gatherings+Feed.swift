import KindredAuth
import KindredMessages
import KindredRPC

/// `ListFeed`.
extension Gatherings {
    /// One page of the caller's feed, newest first, and the next page's token (empty after the last): public
    /// events and the events of people they follow that they may see, none across a block, none reported by
    /// enough people, and no mature one while their content filtering is on (asked afresh on every call).
    func feed(_ request: Kindred_Social_V1_ListFeedRequest, as caller: Caller) async throws
        -> (events: [Kindred_Social_V1_SocialEvent], nextPageToken: String)
    {
        let viewer = try EventViewer(caller)
        let page = try FeedPage(request)
        let filtering = try await controls(of: viewer, when: true).filtersContent
        let found = try await EventStore.feed(for: viewer.id, page, hidingMature: filtering, on: database)
        let shown = Array(found.prefix(page.size))
        let events = try await present(shown, to: viewer, filtering: filtering)
        guard found.count > page.size, let last = shown.last else { return (events, "") }
        return (events, FeedPage.token(after: last.event))
    }
}
