import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `WatchProfileActivity`: a member's live view of their profiles' activity. A stream reads the feed
/// itself only to catch up from its resume cursor; from then on it receives what the process's one reader
/// (`ActivityFanout`) hands it, so open streams cost memory, not queries.
struct BabyActivityWatch: Sendable {
    let database: PostgresPool
    let fanout: ActivityFanout

    /// Sends `user` the entries of `asked` (every profile of theirs when empty, those they join while it runs
    /// too) after `cursor` (from now on when nil), then each new one, until the process drains or the client goes. NOT_FOUND for a profile
    /// they do not belong to; ends NOT_FOUND when they are removed from every profile it watches.
    func watch(
        _ user: UserID, profiles asked: [BabyProfileID], after cursor: Int64?,
        send: (Kindred_Family_V1_WatchProfileActivityResponse) async throws -> Void
    ) async throws {
        let mine = Set(try await BabyMemberStore.memberships(of: user, on: database).map(\.profile))
        guard asked.allSatisfy(mine.contains) else { throw FamilyError.babyProfileNotFound }
        let profiles = asked.isEmpty ? mine : Set(asked)
        let subscription = await fanout.subscribe(user, to: profiles, allOfUser: asked.isEmpty)
        defer { fanout.unsubscribe(subscription) }
        var last = cursor ?? subscription.position
        if last > subscription.position, try await fanout.feed.newestCursor() < last {
            throw FieldViolations.single("after_cursor", "is not a cursor of this stream")
        }
        if last < subscription.position {
            try await catchUp(after: last, through: subscription.position, of: profiles, send: send)
            last = subscription.position
        }
        for try await delivery in subscription.deliveries where delivery.cursor > last {
            try await send(.init(activity: delivery.activity, cursor: String(delivery.cursor)))
            last = delivery.cursor
        }
        try Task.checkCancellation()
    }

    /// Sends the stored entries of `profiles` after `cursor` up to `position`, from the feed (its in-memory
    /// tail when they are recent, its table otherwise).
    private func catchUp(
        after cursor: Int64, through position: Int64, of profiles: Set<BabyProfileID>,
        send: (Kindred_Family_V1_WatchProfileActivityResponse) async throws -> Void
    ) async throws {
        do {
            for try await event in fanout.feed.events(after: cursor) {
                if event.cursor > position { return }
                if let activity = try? Kindred_Family_V1_BabyActivity(serializedBytes: event.payload),
                    let profile = BabyProfileID(activity.profileID), profiles.contains(profile)
                {
                    try await send(.init(activity: activity, cursor: String(event.cursor)))
                }
                if event.cursor == position { return }
            }
        } catch is EventsPruned {
            throw FamilyError.activityCursorExpired
        }
    }
}
