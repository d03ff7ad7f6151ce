import KindredAPI
import KindredEvents

/// `kindred.family.v1.FamilyService`: each RPC reads the request, checks the caller, and hands the rule to
/// the part that owns it. The RPCs are grouped by concern in the `FamilyAPI+*.swift` files.
struct FamilyAPI: Kindred_Family_V1_FamilyService.Service {
    let context: FamilyContext
    /// The guardian PIN, its lockout, its reset by email, and the guardian sessions it opens.
    let pins: GuardianPins
    /// Reading and changing parental controls.
    let controls: MinorControls
    /// The `family.event_outbox` as streams, for `WatchEvents`.
    let events: EventFeed
    /// Guardian approvals.
    let approvals: Approvals
    /// Profiles: reads as each caller may see them, and the user's own changes.
    let profiles: Profiles
    /// Guardian invitations and links, and the `isGuardian` check every part asks.
    let guardians: Guardians
    /// The inbox, push devices and notification settings.
    let notifications: Notifications
    /// Baby profiles, their owners, followers and invitations.
    let babyProfiles: BabyProfiles
    /// Baby profiles' calendars and RSVPs.
    let calendar: BabyCalendar
    /// Comments on a baby profile's events, photos and arrival announcement.
    let comments: BabyComments
    /// Baby profiles' registries and their purchases.
    let registry: BabyRegistry
    /// Baby profiles' photo galleries.
    let gallery: BabyGallery
    /// Baby profiles' home screen and suggestions.
    let babyHome: BabyHome
    /// Baby profiles' live activity streams, fed by one reader per process.
    let babyWatch: BabyActivityWatch
    /// Squishes on photos and on the arrival announcement.
    let squishes: BabySquishes
    /// The arrival announcement.
    let arrivals: BabyArrivals

    /// Builds every part from `context`.
    init(context: FamilyContext) throws {
        self.context = context
        pins = GuardianPins(context: context)
        controls = MinorControls(context: context)
        events = try EventFeed(
            outbox: FamilyEvents.outbox, cipher: context.cipher, pool: context.database,
            logger: context.logger)
        approvals = Approvals(context: context)
        profiles = Profiles(
            database: context.database, clock: context.clock, names: ProfileNames(cipher: context.cipher))
        guardians = Guardians(context: context)
        notifications = Notifications(context: context)
        babyProfiles = BabyProfiles(context: context)
        let seals = BabySeals(cipher: context.cipher)
        calendar = BabyCalendar(database: context.database, clock: context.clock, seals: seals)
        comments = BabyComments(database: context.database, clock: context.clock, seals: seals)
        registry = BabyRegistry(database: context.database, clock: context.clock, seals: seals)
        gallery = BabyGallery(
            database: context.database, clock: context.clock,
            store: SealedPhotoStore(sealing: context.photos, with: context.cipher), seals: seals)
        let membership = BabyMembership(database: context.database)
        babyHome = BabyHome(
            database: context.database, clock: context.clock, membership: membership, seals: seals)
        squishes = BabySquishes(database: context.database, clock: context.clock, seals: seals)
        arrivals = BabyArrivals(
            database: context.database, clock: context.clock, membership: membership, seals: seals)
        babyWatch = BabyActivityWatch(
            database: context.database,
            fanout: ActivityFanout(
                feed: try EventFeed(
                    outbox: BabyActivityFeed.outbox, cipher: context.cipher, pool: context.database,
                    logger: context.logger,
                    options: BabyActivityFeed.options),
                database: context.database, logger: context.logger))
    }

    /// Ends the server streams (events, notifications), so that they do not hold the drain.
    func closeStreams() async {
        await events.close()
        await notifications.bell.close()
        await babyWatch.fanout.close()
        await babyWatch.fanout.feed.close()
    }
}
