import KindredAPI
import KindredEvents

/// `kindred.social.v1.SocialService`: each RPC reads the request, checks the caller, and hands the rule to
/// the part that owns it. The RPCs are grouped by concern in the `SocialAPI+*.swift` files.
struct SocialAPI: Kindred_Social_V1_SocialService.Service {
    let context: SocialContext
    /// The `social.event_outbox` as streams, for `WatchEvents`.
    let events: EventFeed
    /// Content reports and the tallies that filter content for everyone.
    let reports: Reports
    /// Events, who may see and join them, and the feed.
    let gatherings: Gatherings
    /// Friend requests and friendships, follows, blocks and user search.
    let graph: SocialGraph
    /// Direct messages, and the streams of what users receive.
    let messages: Messages

    /// Builds every part from `context`.
    init(context: SocialContext) throws {
        self.context = context
        events = try EventFeed(
            outbox: SocialEvents.outbox, cipher: context.cipher, pool: context.database,
            logger: context.logger)
        reports = Reports(context: context)
        gatherings = Gatherings(context: context)
        graph = SocialGraph(context: context)
        messages = Messages(context: context)
    }

    /// Ends the server streams, so that they do not hold the drain.
    func closeStreams() async {
        await events.close()
        await messages.bell.close()
        await messages.announcer.flush()
    }
}
