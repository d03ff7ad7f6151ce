import KindredAuth
import KindredEvents
import KindredMessages
import KindredPostgres

/// The baby-profile activity as a feed: `family.baby_activity_feed`, an outbox of its own beside
/// `family.event_outbox`, so that the live streams get cursors that follow commit order (given by the
/// sequencer of `KindredEvents` after each commit, the same on every instance) without the activity
/// crowding the events other services consume.
enum BabyActivityFeed {
    static let outbox = EventOutbox(schema: "family", name: "baby_activity_feed")
    /// How long entries stay on the feed: a stream may resume from a cursor this old. While entries come, its
    /// sequencer runs a round every 20 ms instead of every 100: people watch these streams live, and the wait
    /// for a round was most of an entry's delivery time (`Shared/KindredEvents/README.md`).
    static let options = EventFeed.Options(burstInterval: .milliseconds(20), retention: .seconds(7 * 86_400))
}
